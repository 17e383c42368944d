import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { eventually, moneyOutBody, startTestService, type TestService } from '../support/test-service';

const ROOT = path.resolve(__dirname, '../..');

/** Starts the real service (src/app/main.ts) as a child process and resolves once it listens. */
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
    const timer = setTimeout(() => reject(new Error(`child did not start:\n${output}`)), 20_000);
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

describe('a payout worker killed mid-flight', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ WORKER_ENABLED: 'false', WEBHOOK_WORKER_ENABLED: 'false' });
  });
  afterAll(() => service.close());

  it('leaves nothing stuck: another process finishes every payment, each move applied once', async () => {
    const { apiKey } = await service.newTenant();
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await service.call('POST', '/v1/payments/moneyout', { apiKey, body: moneyOutBody(), headers: { 'idempotency-key': randomUUID() } });
      ids.push(res.body.id);
    }
    const workerEnv = {
      SANDBOX_ACCEPT_DELAY_MS: '0', SANDBOX_RESULT_DELAY_MS: '1500', WORKER_LEASE_MS: '1000', WORKER_BATCH_SIZE: '5',
      WORKER_POLL_INTERVAL_MS: '50', WEBHOOK_WORKER_ENABLED: 'false',
    };
    const statuses = async () => Promise.all(ids.map(async (id) => (await service.call('GET', `/v1/payments/${id}`, { apiKey })).body.status as string));

    const first = await startChild(workerEnv);
    await eventually(async () => ((await statuses()).includes('provider_accepted') ? true : undefined));
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    expect((await statuses()).some((s) => s !== 'succeeded')).toBe(true);

    const second = await startChild(workerEnv);
    try {
      await eventually(async () => ((await statuses()).filter((s) => s === 'succeeded').length === 12 ? true : undefined), 20_000);
    } finally {
      second.kill('SIGTERM');
      await new Promise((resolve) => second.once('exit', resolve));
    }
    const rows = await service.database.orm.em.fork().getConnection().execute(
      `select entity_id, array_agg(type order by created_at) as types from outbox_events where entity_id in (${ids.map(() => '?').join(',')}) group by entity_id`,
      ids,
    );
    expect(rows).toHaveLength(ids.length);
    for (const row of rows) expect(row.types).toEqual(['payment.initiated', 'payment.processing', 'payment.succeeded']);
  }, 60_000);
});
