import { randomUUID } from 'node:crypto';
import { LEDGER_SLOTS } from '../../src/adapters/persistence/ledger-post.statement';
import { PgOneTripPaymentWriter } from '../../src/adapters/persistence/one-trip-payment.writer';
import { moneyOutBody, startTestService, type TestService } from '../support/test-service';

/**
 * Balance slots and the one-trip money-out together (docs/decisions.md § Ledger: balance slots;
 * § Performance: a money-out in one round trip): over many more holds than slots, every hold posts
 * in a slot the tenant has (0 to LEDGER_SLOTS - 1, its credit rows of held), and every money-out of
 * a well-funded tenant is written by the one-trip path the first time, never falling back to the
 * transactional path (which would mean its slot did not cover it or did not exist).
 */
describe('many holds of one tenant over its balance slots', () => {
  let service: TestService;
  const answers: string[] = [];
  let spy: jest.SpyInstance;
  beforeAll(async () => {
    service = await startTestService({ WORKER_ENABLED: 'false', WEBHOOK_WORKER_ENABLED: 'false' });
    const original = PgOneTripPaymentWriter.prototype.createIfFirst;
    spy = jest.spyOn(PgOneTripPaymentWriter.prototype, 'createIfFirst').mockImplementation(async function (this: PgOneTripPaymentWriter, write) {
      const answer = await original.call(this, write);
      answers.push(answer);
      return answer;
    });
  });
  afterAll(async () => {
    spy.mockRestore();
    await service.close();
  });

  const sql = <T>(text: string, params: unknown[] = []) => service.database.orm.em.fork().getConnection().execute(text, params) as Promise<T[]>;

  it('posts every hold in a slot in range, each slot in turn, and writes every money-out in one trip the first time', async () => {
    const { tenantId, apiKey } = await service.newTenant();
    const holds = LEDGER_SLOTS * 5 + 3;
    // Ten at a time, as concurrent requests of one issuer arrive.
    for (let start = 0; start < holds; start += 10) {
      const batch = Array.from({ length: Math.min(10, holds - start) }, () => service.call('POST', '/v1/payments/moneyout', {
        apiKey, body: moneyOutBody(), headers: { 'idempotency-key': randomUUID() },
      }));
      expect((await Promise.all(batch)).map((res) => res.status)).toEqual(Array.from({ length: Math.min(10, holds - start) }, () => 201));
    }
    expect(answers).toEqual(Array.from({ length: holds }, () => 'created'));

    const slots = await sql<{ slot: number; holds: number }>(
      `select t.slot, count(*)::int as holds from ledger_transactions t where t.tenant_id = ? and t.kind = 'hold' group by t.slot order by t.slot`, [tenantId]);
    expect(slots.map((s) => s.slot)).toEqual(Array.from({ length: LEDGER_SLOTS }, (_, slot) => slot));
    expect(slots.reduce((sum, s) => sum + s.holds, 0)).toBe(holds);
    expect(Math.max(...slots.map((s) => s.holds)) - Math.min(...slots.map((s) => s.holds))).toBeLessThanOrEqual(1);
    // Each hold is one debit of available and one credit of held, both in its slot's own rows.
    const entries = await sql<{ kind: string; slot: number; mismatched: number }>(
      `select a.kind, min(a.slot)::int as slot, count(*) filter (where a.slot <> t.slot)::int as mismatched
         from ledger_transactions t join ledger_entries e on e.transaction_id = t.id join ledger_accounts a on a.id = e.account_id
        where t.tenant_id = ? and t.kind = 'hold' group by a.kind order by a.kind`, [tenantId]);
    expect(entries).toEqual([{ kind: 'available', slot: 0, mismatched: 0 }, { kind: 'held', slot: 0, mismatched: 0 }]);
  });
});
