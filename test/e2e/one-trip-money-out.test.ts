import { randomUUID } from 'node:crypto';
import { PgOneTripPaymentWriter } from '../../src/adapters/persistence/one-trip-payment.writer';
import { MikroUnitOfWork } from '../../src/adapters/persistence/unit-of-work';
import { loadCatalog } from '../../src/adapters/providers/catalog-file';
import { validateMoneyOut } from '../../src/core/payments/money-out-rules';
import { newPaymentWrite } from '../../src/core/payments/new-payment';
import { catalogBasis } from '../../src/core/quotes/pricing-record';
import type { NewPaymentWrite } from '../../src/core/payments/payment-ports';
import { ok } from '../../src/core/shared/result';
import { command } from '../support/fake-world';
import { moneyOutBody, startTestService, type TestService } from '../support/test-service';

/**
 * The money-out written in one round trip (docs/decisions.md § Performance: a money-out in one
 * round trip) on the real database: it writes everything or nothing, leaves a key in flight, a
 * recorded key and a hold its slot does not cover undecided, and never hands a connection back to
 * the pool inside a transaction.
 */
describe('one-trip money-out writer', () => {
  let service: TestService;
  let writer: PgOneTripPaymentWriter;
  const catalog = loadCatalog('data/corridors.json');
  beforeAll(async () => {
    service = await startTestService({ WORKER_ENABLED: 'false', WEBHOOK_WORKER_ENABLED: 'false' });
    writer = new PgOneTripPaymentWriter(service.database.orm.em, service.container.ids);
  });
  afterAll(() => service.close());

  const sql = <T>(query: string, params: unknown[] = []) => service.database.orm.em.fork().getConnection().execute<T[]>(query, params);
  /** A new payment's write for `tenantId` under `key` (the KES 1,500 mobile-money example, at rate 129.25: 12.115416 USDC). */
  const writeFor = (tenantId: string, key: string = randomUUID(), reference = `ref-${randomUUID()}`): NewPaymentWrite => {
    const valid = validateMoneyOut(catalog, command({ reference }));
    if (!valid.ok) throw new Error(valid.message);
    return newPaymentWrite({ catalog, ids: service.container.ids, idempotencyTtlHours: 24 }, {
      tenantId, key, fingerprint: 'fp', command: valid.value, rate: '129.25', basis: catalogBasis('129.25'), now: new Date(), paymentId: service.container.ids.next('pay'),
    }).write;
  };
  /** What the database holds for a payment: its row, events, idempotency record and ledger transactions. */
  const rowsOf = async (w: NewPaymentWrite) => {
    const [counts] = await sql<Record<string, string>>(
      `select (select count(*) from payments where id = ?)::text as payments,
              (select count(*) from outbox_events where entity_id = ?)::text as events,
              (select count(*) from idempotency_keys where tenant_id = ? and key = ? and resource_id = ?)::text as records,
              (select count(*) from ledger_transactions where payment_id = ?)::text as ledger`,
      [w.payment.id, w.payment.id, w.idempotency.tenantId, w.idempotency.key, w.payment.id, w.payment.id]);
    return counts;
  };
  const idleInTransaction = async () => (await sql<{ n: string }>(
    "select count(*)::text as n from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'"))[0]!.n;

  it('writes the payment, its event, its record and its hold, and the payment reads back', async () => {
    const { tenantId, apiKey } = await service.newTenant('1000');
    const w = writeFor(tenantId);
    expect(await writer.createIfFirst(w)).toBe('created');
    expect(await rowsOf(w)).toEqual({ payments: '1', events: '1', records: '1', ledger: '1' });
    const read = await service.call('GET', `/v1/payments/${w.payment.id}`, { apiKey });
    expect(read.body).toMatchObject({ status: 'initiated', amountStablecoin: '12.115416', reference: w.payment.reference });
    const [held] = await sql<{ held: string }>("select sum(balance)::text as held from ledger_accounts where tenant_id = ? and currency = 'USDC' and kind = 'held'", [tenantId]);
    expect(Number(held!.held)).toBe(12.115416);
  });

  it('leaves a key in flight undecided and writes nothing', async () => {
    const { tenantId } = await service.newTenant('1000');
    const w = writeFor(tenantId);
    let release!: () => void;
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const uow = new MikroUnitOfWork(service.database.orm.em, service.container.ids, service.container.clock);
    const holding = uow.transact(async (tx) => {
      await tx.idempotency.lock(tenantId, w.idempotency.key);
      locked();
      await new Promise<void>((resolve) => (release = resolve));
      return ok(undefined);
    });
    await isLocked;
    expect(await writer.createIfFirst(w)).toBe('undecided');
    release();
    await holding;
    expect(await rowsOf(w)).toEqual({ payments: '0', events: '0', records: '0', ledger: '0' });
  });

  it('leaves a recorded key undecided, and a reference already used is duplicate_reference; neither writes', async () => {
    const { tenantId } = await service.newTenant('1000');
    const first = writeFor(tenantId);
    expect(await writer.createIfFirst(first)).toBe('created');
    const sameKey = writeFor(tenantId, first.idempotency.key);
    expect(await writer.createIfFirst(sameKey)).toBe('undecided');
    const sameReference = writeFor(tenantId, randomUUID(), first.payment.reference!);
    expect(await writer.createIfFirst(sameReference)).toBe('duplicate_reference');
    for (const w of [sameKey, sameReference]) expect(await rowsOf(w)).toEqual({ payments: '0', events: '0', records: '0', ledger: '0' });
  });

  it('leaves a hold its slot does not cover undecided; the money-out is then made by gathering slots', async () => {
    // 20 USDC spread over 16 slots: no slot covers 12.115416 alone, all of them together do.
    const { tenantId, apiKey } = await service.newTenant('20');
    const w = writeFor(tenantId);
    expect(await writer.createIfFirst(w)).toBe('undecided');
    expect(await rowsOf(w)).toEqual({ payments: '0', events: '0', records: '0', ledger: '0' });
    const created = await service.call('POST', '/v1/payments/moneyout', { apiKey, body: moneyOutBody(), headers: { 'idempotency-key': randomUUID() } });
    expect(created.status).toBe(201);
    const again = await service.call('POST', '/v1/payments/moneyout', { apiKey, body: moneyOutBody(), headers: { 'idempotency-key': randomUUID() } });
    expect([again.status, again.body.code]).toEqual([422, 'insufficient_balance']);
  });

  it('hands every connection back outside a transaction, however many scripts were stopped', async () => {
    const { tenantId } = await service.newTenant('1000');
    const first = writeFor(tenantId);
    expect(await writer.createIfFirst(first)).toBe('created');
    // More stopped scripts than the pool has connections, at once.
    const answers = await Promise.all(Array.from({ length: 25 }, () => writer.createIfFirst(writeFor(tenantId, first.idempotency.key))));
    expect(new Set(answers)).toEqual(new Set(['undecided']));
    expect(await idleInTransaction()).toBe('0');
    expect(await writer.createIfFirst(writeFor(tenantId))).toBe('created');
  });
});
