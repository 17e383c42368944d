import { randomUUID } from 'node:crypto';
import { startServiceChild } from '../support/child-process';
import { eventually, moneyOutBody, startTestService, type TestService } from '../support/test-service';

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

    const first = await startServiceChild(workerEnv);
    await eventually(async () => ((await statuses()).includes('provider_accepted') ? true : undefined));
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    expect((await statuses()).some((s) => s !== 'succeeded')).toBe(true);

    const second = await startServiceChild(workerEnv);
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
