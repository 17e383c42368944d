import { randomUUID } from 'node:crypto';
import { PAYMENT_VIEWS_SQL } from '../../src/adapters/persistence/payment-view.reader';
import { preparedRead } from '../../src/adapters/persistence/prepared-read';
import { moneyOutBody, startTestService, type TestService } from '../support/test-service';

/**
 * GET /v1/payments/{id} (OpenAPI getPayment) while many reads of several tenants arrive at once:
 * concurrent reads share one statement (docs/decisions.md § Performance), and each must still get
 * its own tenant's payment, or 404 for another tenant's.
 */
describe('concurrent payment reads of several tenants', () => {
  let service: TestService;
  const tenants: { tenantId: string; apiKey: string; payments: { id: string; reference: string }[] }[] = [];

  beforeAll(async () => {
    service = await startTestService({ WORKER_ENABLED: 'false' });
    for (let t = 0; t < 2; t++) {
      const { tenantId, apiKey } = await service.newTenant();
      const payments = [];
      for (let i = 0; i < 3; i++) {
        const res = await service.call('POST', '/v1/payments/moneyout', { apiKey, body: moneyOutBody(), headers: { 'idempotency-key': randomUUID() } });
        expect(res.status).toBe(201);
        payments.push({ id: res.body.id as string, reference: res.body.reference as string });
      }
      tenants.push({ tenantId, apiKey, payments });
    }
  });
  afterAll(() => service.close());

  it('answers each read with its own tenant\'s payment and 404 for any other, all at once', async () => {
    const [a, b] = tenants as [typeof tenants[0], typeof tenants[0]];
    const asks = [
      ...a.payments.map((p) => ({ apiKey: a.apiKey, id: p.id, expect: p.reference })),
      ...b.payments.map((p) => ({ apiKey: b.apiKey, id: p.id, expect: p.reference })),
      ...b.payments.map((p) => ({ apiKey: a.apiKey, id: p.id, expect: undefined })),
      ...a.payments.map((p) => ({ apiKey: b.apiKey, id: p.id, expect: undefined })),
      { apiKey: a.apiKey, id: 'pay_01JZZZZZZZZZZZZZZZZZZZZZZZ', expect: undefined },
      // Ids that mean something inside an array literal travel as plain values, beside real reads.
      ...['NULL', 'a,b', '"x"', '{y}', 'back\\slash'].map((id) => ({ apiKey: a.apiKey, id: encodeURIComponent(id), expect: undefined })),
    ];
    const all = Array.from({ length: 5 }, () => asks).flat();
    const answers = await Promise.all(all.map((ask) => service.call('GET', `/v1/payments/${ask.id}`, { apiKey: ask.apiKey })));
    answers.forEach((res, i) => {
      const ask = all[i]!;
      if (ask.expect === undefined) {
        expect({ id: ask.id, status: res.status, code: res.body.code }).toEqual({ id: ask.id, status: 404, code: 'not_found' });
      } else {
        expect({ status: res.status, id: res.body.id, reference: res.body.reference }).toEqual({ status: 200, id: ask.id, reference: ask.expect });
      }
    });
  });

  it('the batched statement itself returns a row only for a payment asked for under its own tenant', async () => {
    const [a, b] = tenants as [typeof tenants[0], typeof tenants[0]];
    /** PAYMENT_VIEWS_SQL as the repository sends it: two parallel arrays, payment ids and their tenants. */
    const views = async (pairs: [paymentId: string, tenantId: string][]) => {
      const rows = await preparedRead(service.database.orm.em, 'payment_views_for_tenants', PAYMENT_VIEWS_SQL, [pairs.map(([id]) => id), pairs.map(([, t]) => t)]);
      return rows.map((row) => `${String(row.tenant_id)}/${String(row.id)}`).sort();
    };
    const [pa, pb] = [a.payments[0]!.id, b.payments[0]!.id];
    // Each payment asked for under the other tenant only: nothing.
    expect(await views([[pa, b.tenantId], [pb, a.tenantId]])).toEqual([]);
    // Mixed with its own pairs in one statement: only the own pairs, once each.
    expect(await views([[pa, b.tenantId], [pa, a.tenantId], [pb, a.tenantId], [pb, b.tenantId], ['pay_01JZZZZZZZZZZZZZZZZZZZZZZZ', a.tenantId]]))
      .toEqual([`${a.tenantId}/${pa}`, `${b.tenantId}/${pb}`].sort());
    // Every payment of A asked for under B, and B's under A, in one statement: still nothing.
    expect(await views([...a.payments.map((p): [string, string] => [p.id, b.tenantId]), ...b.payments.map((p): [string, string] => [p.id, a.tenantId])])).toEqual([]);
  });
});
