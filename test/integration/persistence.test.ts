import { MikroORM } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import { ormOptions } from '../../src/adapters/persistence/mikro-orm.config';
import { PaymentQueueRepository } from '../../src/adapters/persistence/payment.repository';
import { MikroUnitOfWork } from '../../src/adapters/persistence/unit-of-work';
import { systemClock, ulidGenerator } from '../../src/adapters/providers/system';
import { IdempotencyTxStore, idempotencySaveStatement } from '../../src/adapters/persistence/idempotency.store';
import type { IdempotencyRecord } from '../../src/core/idempotency/idempotency';
import { Payment } from '../../src/core/payments/payment';
import { ok, err } from '../../src/core/shared/result';
import { purgeExpired } from '../../src/adapters/workers/purge';
import { usePersonalDataBox } from '../../src/adapters/persistence/schemas/sealed-text.type';
import { PersonalDataBox } from '../../src/adapters/providers/personal-data-box';

/** Repositories and the idempotency store against the real database, without HTTP. */
describe('persistence', () => {
  let orm: MikroORM;
  const ids = ulidGenerator();
  beforeAll(async () => {
    orm = await MikroORM.init(ormOptions(process.env.TEST_DATABASE_URL!, 6));
    // As the composition root does: sealed columns (account number and name) need the key. The
    // test services' key, since their payout workers later claim these payments from the same database.
    usePersonalDataBox(orm, new PersonalDataBox(Buffer.alloc(32, 7)));
  });
  afterAll(() => orm.close(true));

  const uow = () => new MikroUnitOfWork(orm.em, ids, systemClock);
  const record = (tenantId: string, key: string, expiresAt: Date): IdempotencyRecord => ({
    tenantId, key, operation: 'moneyout', fingerprint: 'f1', responseBody: { id: 'pay_x', b: 2, a: 1 },
    resourceId: 'pay_x', createdAt: new Date(), expiresAt,
  });
  /** One transaction with the idempotency store; `save` writes a record as the payment insert does. A throw rolls back. */
  const inTransaction = <T>(work: (store: IdempotencyTxStore, save: (r: IdempotencyRecord) => Promise<void>) => Promise<T>) =>
    orm.em.fork().transactional((tem) => work(new IdempotencyTxStore(tem, systemClock), async (r) => {
      await tem.execute(...idempotencySaveStatement(tem, r));
    }));

  it('idempotency: a key held by an open transaction is busy; after commit its record is visible, key order kept', async () => {
    const tenantId = `ten_${randomUUID()}`;
    const key = randomUUID();
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let busyDuringHold: string | undefined;
    let locked!: () => void;
    const lockTaken = new Promise<void>((r) => (locked = r));
    const first = inTransaction(async (store, save) => {
      expect((await store.lock(tenantId, key)).kind).toBe('free');
      await save(record(tenantId, key, new Date(Date.now() + 60_000)));
      locked();
      await held;
    });
    await lockTaken;
    await inTransaction(async (store) => {
      busyDuringHold = (await store.lock(tenantId, key)).kind;
    });
    release();
    await first;
    expect(busyDuringHold).toBe('busy');
    await inTransaction(async (store) => {
      const lock = await store.lock(tenantId, key);
      expect(lock.kind === 'free' && lock.record?.fingerprint).toBe('f1');
      expect(lock.kind === 'free' && JSON.stringify(lock.record?.responseBody)).toBe('{"id":"pay_x","b":2,"a":1}');
    });
  });

  it('idempotency: an expired record is ignored and replaced; a rolled-back write leaves the old one', async () => {
    const tenantId = `ten_${randomUUID()}`;
    const key = randomUUID();
    await inTransaction((_store, save) => save(record(tenantId, key, new Date(Date.now() - 1000))));
    await expect(inTransaction(async (store, save) => {
      expect(await store.lock(tenantId, key)).toEqual({ kind: 'free', record: undefined });
      await save({ ...record(tenantId, key, new Date(Date.now() + 60_000)), fingerprint: 'f2' });
      throw new Error('changed our mind');
    })).rejects.toThrow('changed our mind');
    const [row] = await orm.em.fork().getConnection().execute('select fingerprint from idempotency_keys where tenant_id = ? and key = ?', [tenantId, key]);
    expect(row!.fingerprint).toBe('f1');
  });

  it('unit of work: an error result rolls back what the work wrote', async () => {
    const event = { id: randomUUID(), tenantId: `ten_${randomUUID()}`, type: 'payment.initiated' as const, entityId: ids.next('pay'), payload: {}, createdAt: new Date() };
    const rolledBack = await uow().transact(async (tx) => {
      await tx.outbox.append(event);
      return err('validation_error', 'changed our mind');
    });
    expect(rolledBack.ok).toBe(false);
    expect(await orm.em.fork().getConnection().execute('select id from outbox_events where id = ?', [event.id])).toEqual([]);
  });

  it('payment queue: concurrent claims never take the same payment, and a lease hides a claimed one', async () => {
    const tenantId = `ten_${randomUUID()}`;
    const now = new Date();
    const payments = Array.from({ length: 20 }, (_, i) => new Payment({
      id: ids.next('pay'), tenantId, status: 'initiated', paymentMethod: 'MOMO', sourceCurrency: 'USDC', destinationCurrency: 'KES',
      country: 'KE', blockchain: 'SOLANA', amountStablecoin: '1', fiatAmount: '100', exchangeRate: '100', payoutFee: '0',
      accountName: 'a', accountNumber: '254700000000', paymentCode: 'MPESA', businessNumber: null, reference: `r${i}-${randomUUID()}`,
      refundAddress: 'x', optionalIssuerFee: 'NO', quoteId: null, providerRef: null, provider: null, submittedAt: null, failureReason: null, failureCode: null,
      nextActionAt: new Date(now.getTime() - 1000), attempts: 0, acceptedAt: null, createdAt: now, updatedAt: now,
    }));
    const queue = new PaymentQueueRepository(orm.em);
    const lease = new Date(now.getTime() + 60_000);
    // Payments earlier files left due in this database (their services stopped) would compete for
    // the claims below and, claimed with the same lease, tie with these: they are leased a day away first.
    while ((await queue.claimDue(new Date(lease.getTime() + 1), 100, new Date(now.getTime() + 86_400_000))).length > 0);
    await orm.em.fork().insertMany('Payment', payments);
    const claims = await Promise.all([1, 2, 3, 4].map(() => queue.claimDue(now, 50, lease)));
    const mine = claims.flat().filter((p) => p.tenantId === tenantId);
    expect(mine).toHaveLength(20);
    expect(new Set(mine.map((p) => p.id)).size).toBe(20);
    expect(mine.map((p) => [p.attempts, p.nextActionAt?.getTime()])).toEqual(Array.from({ length: 20 }, () => [1, lease.getTime()]));
    expect((await queue.claimDue(now, 50, lease)).filter((p) => p.tenantId === tenantId)).toHaveLength(0);
    const afterLease = await queue.claimDue(new Date(lease.getTime() + 1), 100, new Date(lease.getTime() + 60_000));
    expect(afterLease.filter((p) => p.tenantId === tenantId)).toHaveLength(20);
  });

  it('payment store: a guarded update applies only from the expected status', async () => {
    const [payment] = await orm.em.fork().getConnection().execute("select id from payments where status = 'initiated' limit 1");
    const moved = await uow().transact(async (tx) => ok(await tx.payments.update(payment!.id, 'provider_accepted', { failureReason: 'x' })));
    expect(moved.ok && moved.value).toBeUndefined();
  });
});

describe('purge', () => {
  it('removes expired idempotency keys and long-expired quotes only', async () => {
    const orm = await MikroORM.init(ormOptions(process.env.TEST_DATABASE_URL!, 2));
    try {
      const conn = orm.em.getConnection();
      const tenantId = `ten_${randomUUID()}`;
      const old = new Date(Date.now() - 8 * 86_400_000);
      await conn.execute(
        `insert into idempotency_keys (tenant_id, key, operation, fingerprint, response_status, response_body, resource_id, created_at, expires_at)
         values (?, 'gone', 'moneyout', 'f', 201, '{}', 'pay_x', ?, ?), (?, 'kept', 'moneyout', 'f', 201, '{}', 'pay_x', now(), now() + interval '1 hour')`,
        [tenantId, old, old, tenantId]);
      const removed = await purgeExpired(orm.em, new Date());
      expect(removed.idempotencyKeys).toBeGreaterThanOrEqual(1);
      const left = await conn.execute('select key from idempotency_keys where tenant_id = ? order by key', [tenantId]);
      expect(left).toEqual([{ key: 'kept' }]);
    } finally {
      await orm.close(true);
    }
  });
});
