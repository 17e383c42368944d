import { startPaystackSimulator, type PaystackSimulator } from '../../simulators/paystack/paystack-simulator';
import { liveTenant, moneyOut, ngBankBody } from '../support/live-tenant';
import { startServiceChild } from '../support/child-process';
import { eventually, startTestService, type TestService } from '../support/test-service';

/**
 * Never pay twice (docs/decisions.md § Payout providers: never pay twice): the service is killed
 * with SIGKILL while Paystack holds its submit responses (each transfer recorded, no answer yet).
 * The restarted service finds the submission markers and asks Paystack for each transfer's status
 * instead of submitting again.
 */
describe('a service killed -9 while the provider holds its submissions', () => {
  let sim: PaystackSimulator;
  let service: TestService;
  let env: Record<string, string>;
  beforeAll(async () => {
    sim = await startPaystackSimulator({ resultDelayMs: 20 });
    env = { PAYSTACK_SECRET_KEY: sim.secretKey, PAYSTACK_BASE_URL: sim.url, PAYSTACK_RESPONSE_TIMEOUT_MS: '60000' };
    service = await startTestService({ ...env, WORKER_ENABLED: 'false', WEBHOOK_WORKER_ENABLED: 'false' });
  });
  afterAll(async () => {
    await service.close();
    await sim.close();
  });

  it('after a restart the simulator holds exactly one disbursement per payment, and every payment completes', async () => {
    const { apiKey } = await liveTenant(service, await service.newAdminKey());
    // Account numbers ending 98: the simulator records the transfer and holds the answer.
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push(await moneyOut(service, apiKey, ngBankBody('98')));
    const workerEnv = { ...env, WORKER_LEASE_MS: '1000', WORKER_POLL_INTERVAL_MS: '50', WEBHOOK_WORKER_ENABLED: 'false' };

    const first = await startServiceChild(workerEnv);
    await eventually(async () => (sim.transfers().length === ids.length ? true : undefined), 20_000);
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    expect(sim.requestCount('POST /transfer')).toBe(ids.length);
    const status = async (id: string) => (await service.call('GET', `/v1/payments/${id}`, { apiKey })).body.status as string;
    expect(await Promise.all(ids.map(status))).toEqual(ids.map(() => 'initiated'));

    const second = await startServiceChild(workerEnv);
    try {
      await eventually(async () => ((await Promise.all(ids.map(status))).every((s) => s === 'succeeded') ? true : undefined), 30_000);
    } finally {
      second.kill('SIGTERM');
      await new Promise((resolve) => second.once('exit', resolve));
    }
    const references = sim.transfers().map((t) => t.reference);
    expect(references.sort()).toEqual(ids.map((id) => id.toLowerCase()).sort());
    // The restarted worker asked for each transfer's status; it submitted nothing again.
    expect(sim.requestCount('POST /transfer')).toBe(ids.length);
    expect(sim.requestCount('GET /transfer/verify')).toBeGreaterThanOrEqual(ids.length);
  }, 90_000);
});
