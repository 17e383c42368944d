import { randomUUID } from 'node:crypto';
import { subscribe, subscribed } from '../support/graphql-client';
import { moneyOutBody, startTestService, type TestService } from '../support/test-service';

describe('GraphQL subscriptions across replicas (PostgreSQL LISTEN/NOTIFY)', () => {
  let a: TestService;
  let b: TestService;

  beforeAll(async () => {
    // Two service instances on one database; only B runs the payout worker, so every change is
    // committed by B and can reach A only through PostgreSQL.
    a = await startTestService({ WORKER_ENABLED: 'false', WEBHOOK_WORKER_ENABLED: 'false' });
    b = await startTestService({ WEBHOOK_WORKER_ENABLED: 'false' });
  });
  afterAll(async () => {
    await a.close();
    await b.close();
  });

  it('a subscriber on A receives every change of a payment created and moved through B', async () => {
    const { apiKey } = await a.newTenant();
    const onA = subscribe(a.baseUrl, apiKey, 'subscription { paymentUpdated { id status } }');
    try {
      await subscribed(a, 1);
      const created = await b.call('POST', '/v1/payments/moneyout', { apiKey, body: moneyOutBody(), headers: { 'idempotency-key': randomUUID() } });
      expect(created.status).toBe(201);
      const results = await onA.until((r) => r.some((x) => x.data.paymentUpdated.status === 'SUCCEEDED'));
      expect(results.map((r) => r.data.paymentUpdated)).toEqual([
        { id: created.body.id, status: 'INITIATED' },
        { id: created.body.id, status: 'PROVIDER_ACCEPTED' },
        { id: created.body.id, status: 'SUCCEEDED' },
      ]);
    } finally {
      await onA.dispose();
    }
  });

  it('money-outs created concurrently on both replicas: every change of each payment once, in order', async () => {
    const { apiKey } = await a.newTenant();
    const onA = subscribe(a.baseUrl, apiKey, 'subscription { paymentUpdated { id status } }');
    try {
      await subscribed(a, 1);
      const created = await Promise.all(Array.from({ length: 24 }, (_, i) => (i % 2 === 0 ? a : b)
        .call('POST', '/v1/payments/moneyout', { apiKey, body: moneyOutBody(), headers: { 'idempotency-key': randomUUID() } })));
      expect(created.map((c) => c.status)).toEqual(created.map(() => 201));
      const ids = created.map((c) => c.body.id as string);
      const finished = (r: any[]) => ids.every((id) => r.some((x) => x.data.paymentUpdated.id === id && x.data.paymentUpdated.status === 'SUCCEEDED'));
      const results = (await onA.until(finished)).map((r) => r.data.paymentUpdated);
      for (const id of ids) {
        expect(results.filter((p) => p.id === id).map((p) => p.status)).toEqual(['INITIATED', 'PROVIDER_ACCEPTED', 'SUCCEEDED']);
      }
      expect(results).toHaveLength(ids.length * 3);
    } finally {
      await onA.dispose();
    }
  });

  it('survives the loss of the LISTEN connection: reconnects, and catches up with what changed meanwhile', async () => {
    const { apiKey } = await a.newTenant();
    const onA = subscribe(a.baseUrl, apiKey, 'subscription { paymentUpdated { id status } }');
    try {
      await subscribed(a, 1);
      // Cut every LISTEN connection of this database, then change a payment while they are down.
      const killed = await a.database.orm.em.getConnection().execute<{ pid: number }[]>(
        `select pg_terminate_backend(pid) as pid from pg_stat_activity
          where datname = current_database() and query ilike 'listen %' and pid <> pg_backend_pid()`);
      expect(killed.length).toBeGreaterThan(0);
      const created = await b.call('POST', '/v1/payments/moneyout', { apiKey, body: moneyOutBody(), headers: { 'idempotency-key': randomUUID() } });
      const results = await onA.until((r) => r.some((x) => x.data.paymentUpdated.id === created.body.id && x.data.paymentUpdated.status === 'SUCCEEDED'));
      // The feed reads from where it stopped: every change committed meanwhile, once, in order.
      expect(results.map((r) => r.data.paymentUpdated)).toEqual([
        { id: created.body.id, status: 'INITIATED' },
        { id: created.body.id, status: 'PROVIDER_ACCEPTED' },
        { id: created.body.id, status: 'SUCCEEDED' },
      ]);
    } finally {
      await onA.dispose();
    }
  });
});
