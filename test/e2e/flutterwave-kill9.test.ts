import { startFlutterwaveSimulator, type FlutterwaveSimulator } from '../../simulators/flutterwave/flutterwave-simulator';
import { SENDER_ENV } from '../providers/flutterwave-harness';
import { liveTenant, moneyOut } from '../support/live-tenant';
import { killedWhileProviderHolds } from '../support/provider-e2e';
import { moneyOutBody, startTestService, type TestService } from '../support/test-service';

/**
 * Never pay twice (docs/decisions.md § Payout providers: never pay twice) with Flutterwave: the
 * service is killed with SIGKILL while Flutterwave holds its submit responses (each transfer
 * recorded, no answer yet). The restarted service finds the submission markers and looks each
 * transfer up by reference instead of submitting again.
 */
describe('a service killed -9 while Flutterwave holds its submissions', () => {
  let sim: FlutterwaveSimulator;
  let service: TestService;
  let env: Record<string, string>;
  beforeAll(async () => {
    sim = await startFlutterwaveSimulator({ resultDelayMs: 20 });
    env = {
      FLUTTERWAVE_SECRET_KEY: sim.secretKey, FLUTTERWAVE_BASE_URL: sim.url, FLUTTERWAVE_WEBHOOK_SECRET_HASH: sim.secretHash, ...SENDER_ENV,
      FLUTTERWAVE_RESPONSE_TIMEOUT_MS: '60000', FLUTTERWAVE_RESULT_WAIT_MS: '100',
    };
    service = await startTestService({ ...env, WORKER_ENABLED: 'false', WEBHOOK_WORKER_ENABLED: 'false' });
  });
  afterAll(async () => {
    await service.close();
    await sim.close();
  });

  it('after a restart the simulator holds exactly one transfer per payment, and every payment completes', async () => {
    const { apiKey } = await liveTenant(service, await service.newAdminKey());
    // Numbers ending 98: the simulator records the transfer and holds the answer.
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      ids.push(await moneyOut(service, apiKey, moneyOutBody({
        country: 'UG', destinationCurrency: 'UGX', paymentCode: 'AIRTEL', fiatAmount: '50000', accountNumber: '256701234598',
      })));
    }
    const workerEnv = { ...env, WORKER_LEASE_MS: '1000', WORKER_POLL_INTERVAL_MS: '50', WEBHOOK_WORKER_ENABLED: 'false' };

    await killedWhileProviderHolds(service, apiKey, ids, workerEnv, () => sim.transfers().length,
      () => expect(sim.requestCount('POST /v3/transfers')).toBe(ids.length));
    expect(sim.transfers().map((t) => t.reference).sort()).toEqual([...ids].sort());
    // The restarted worker looked each transfer up; it submitted nothing again.
    expect(sim.requestCount('POST /v3/transfers')).toBe(ids.length);
    expect(sim.requestCount('GET /v3/transfers')).toBeGreaterThanOrEqual(ids.length);
  }, 150_000);
});
