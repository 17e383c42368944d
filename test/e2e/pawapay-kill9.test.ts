import { startPawapaySimulator, type PawapaySimulator } from '../../simulators/pawapay/pawapay-simulator';
import { payoutIdOf } from '../../src/adapters/providers/pawapay/pawapay-wire';
import { liveTenant, moneyOut } from '../support/live-tenant';
import { killedWhileProviderHolds } from '../support/provider-e2e';
import { moneyOutBody, startTestService, type TestService } from '../support/test-service';

/**
 * Never pay twice (docs/decisions.md § Payout providers: never pay twice) with pawaPay: the service
 * is killed with SIGKILL while pawaPay holds its payout responses (each payout recorded, no answer
 * yet). The restarted service asks pawaPay for each payout's status instead of submitting again.
 */
describe('a service killed -9 while pawaPay holds its payout requests', () => {
  let sim: PawapaySimulator;
  let service: TestService;
  let env: Record<string, string>;
  beforeAll(async () => {
    sim = await startPawapaySimulator({ processingDelayMs: 20 });
    env = {
      PAWAPAY_BASE_URL: sim.url, PAWAPAY_API_TOKEN: sim.apiToken, PAWAPAY_ENVIRONMENT: 'sandbox',
      PAWAPAY_CALLBACK_SECRET: 'pp_secret_0123456789abcdefghijklmnopqrstuv', PAWAPAY_RESPONSE_TIMEOUT_MS: '60000', PAWAPAY_POLL_INTERVAL_MS: '200',
    };
    service = await startTestService({ ...env, WORKER_ENABLED: 'false', WEBHOOK_WORKER_ENABLED: 'false' });
  });
  afterAll(async () => {
    await service.close();
    await sim.close();
  });

  it('after a restart pawaPay holds exactly one payout per payment, each submitted once, and every payment completes', async () => {
    const { apiKey } = await liveTenant(service, await service.newAdminKey());
    // Numbers ending 40: the simulator records the payout and holds the answer.
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      ids.push(await moneyOut(service, apiKey, moneyOutBody({
        country: 'TZ', destinationCurrency: 'TZS', paymentCode: 'TIGO', fiatAmount: '20000', accountNumber: `25571234${i}140`,
      })));
    }
    const workerEnv = { ...env, WORKER_LEASE_MS: '1000', WORKER_POLL_INTERVAL_MS: '50', WEBHOOK_WORKER_ENABLED: 'false' };

    await killedWhileProviderHolds(service, apiKey, ids, workerEnv, () => sim.payouts().length);
    expect(sim.payouts().map((p) => p.payoutId).sort()).toEqual(ids.map(payoutIdOf).sort());
    // The restarted worker asked for each payout's status; it submitted nothing again.
    expect(ids.map((id) => sim.submissions(payoutIdOf(id)))).toEqual(ids.map(() => 1));
  }, 150_000);
});
