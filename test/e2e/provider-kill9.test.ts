import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { startPaystackSimulator, type PaystackSimulator } from '../../simulators/paystack/paystack-simulator';
import { liveTenant, moneyOut, ngBankBody } from '../support/live-tenant';
import { eventually, startTestService, type TestService } from '../support/test-service';

const ROOT = path.resolve(__dirname, '../..');

/** The real service (src/app/main.ts) as a child process, resolved once it listens. */
function startChild(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', 'src/app/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env, DATABASE_URL: process.env.TEST_DATABASE_URL!, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info',
      WEBHOOK_SECRET_KEY: Buffer.alloc(32, 7).toString('base64'), ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`child did not start:\n${output}`)), 30_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('payout gateway listening')) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`child exited ${code}:\n${output}`)));
  });
}

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

    const first = await startChild(workerEnv);
    await eventually(async () => (sim.transfers().length === ids.length ? true : undefined), 20_000);
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    expect(sim.requestCount('POST /transfer')).toBe(ids.length);
    const status = async (id: string) => (await service.call('GET', `/v1/payments/${id}`, { apiKey })).body.status as string;
    expect(await Promise.all(ids.map(status))).toEqual(ids.map(() => 'initiated'));

    const second = await startChild(workerEnv);
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
