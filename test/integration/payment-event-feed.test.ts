import { MikroORM } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import type { ClientConfig } from 'pg';
import pino from 'pino';
import { ormOptions } from '../../src/adapters/persistence/mikro-orm.config';
import { MikroUnitOfWork } from '../../src/adapters/persistence/unit-of-work';
import { PaymentEventRepository } from '../../src/adapters/persistence/payment-event.repository';
import { PgNotificationListener } from '../../src/adapters/notifications/notification-listener';
import { PgCommitNotifier } from '../../src/adapters/notifications/commit-notifier';
import { PaymentEventFeed } from '../../src/adapters/notifications/payment-event.feed';
import { TenantEventBus } from '../../src/adapters/notifications/tenant-event.bus';
import { systemClock, ulidGenerator } from '../../src/adapters/providers/system';
import type { OutboxEvent } from '../../src/core/events/outbox-event';
import type { PaymentView } from '../../src/core/payments/payment-view';
import { err, ok } from '../../src/core/shared/result';
import { eventually } from '../support/test-service';

/** One replica's live path: its LISTEN connection, its after-commit notifier and its payment feed. */
interface Replica {
  listener: PgNotificationListener;
  notifier: PgCommitNotifier;
  feed: PaymentEventFeed;
  bus: TenantEventBus<PaymentView>;
  uow: MikroUnitOfWork;
}

/** A delivered view's test marks (the event payload as written). */
type Marked = PaymentView & { mark: string };

/**
 * The live payment feed (docs/decisions.md § GraphQL) on the real database: events committed by
 * units of work that notify after commit, read between snapshots in commit order.
 */
describe('payment event feed: committed events, in commit order, exactly once', () => {
  let orm: MikroORM;
  let a: Replica;
  let b: Replica;
  const ids = ulidGenerator();
  const logger = pino({ level: 'silent' });

  const replica = async (): Promise<Replica> => {
    const config = orm.em.getConnection().getConnectionOptions() as ClientConfig;
    const listener = new PgNotificationListener(config, logger);
    const notifier = new PgCommitNotifier(config, listener, logger);
    const bus = new TenantEventBus<PaymentView>();
    // No poll: only wakes (a local commit, a NOTIFY, a reconnection) make the feed read.
    const feed = new PaymentEventFeed({ events: new PaymentEventRepository(orm.em), listener, bus, logger, pollMs: 3_600_000 });
    await listener.start();
    await feed.start();
    return { listener, notifier, feed, bus, uow: new MikroUnitOfWork(orm.em, ids, systemClock, notifier) };
  };

  beforeAll(async () => {
    orm = await MikroORM.init(ormOptions(process.env.TEST_DATABASE_URL!, 12));
    a = await replica();
    b = await replica();
  });
  afterAll(async () => {
    for (const r of [a, b]) {
      await r.listener.stop();
      await r.notifier.stop();
      await r.feed.stop();
    }
    await orm.close(true);
  });

  const event = (tenantId: string, paymentId: string, mark: string): OutboxEvent => ({
    id: randomUUID(), tenantId, type: 'payment.processing', entityId: paymentId,
    payload: { id: paymentId, status: 'provider_accepted', mark }, createdAt: new Date(),
  });
  /** Collects what `tenantId`'s subscribers on `r` receive. */
  const watch = (r: Replica, tenantId: string) => {
    const received: Marked[] = [];
    const iterator = r.bus.subscribe(tenantId);
    void (async () => {
      for await (const view of iterator) received.push(view as Marked);
    })();
    return { received, marks: () => received.map((v) => v.mark), close: () => void iterator.return?.() };
  };
  /** Commits one transaction appending `marks` (on `paymentId`) through `r`'s unit of work. */
  const commit = (r: Replica, tenantId: string, paymentId: string, ...marks: string[]) => r.uow.transact(async (tx) => {
    for (const mark of marks) await tx.outbox.append(event(tenantId, paymentId, mark));
    return ok(marks);
  });
  const tenant = () => `ten_feed_${randomUUID().slice(0, 8)}`;
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('many concurrent writers on two replicas: each committed event once, in an order every finished-before-started pair keeps; rollbacks never', async () => {
    const tenantId = tenant();
    const onA = watch(a, tenantId);
    const writers = 6;
    const transactions = 15;
    const committed: { marks: string[]; start: number; end: number }[] = [];
    const rolledBack: string[] = [];
    await Promise.all(Array.from({ length: writers }, async (_, w) => {
      // Half the writers commit on A (woken in-process), half on B (A hears B's NOTIFY).
      const r = w % 2 === 0 ? a : b;
      for (let k = 0; k < transactions; k += 1) {
        const marks = [`w${w}-t${k}-e0`, `w${w}-t${k}-e1`];
        const start = performance.now();
        const result = await r.uow.transact(async (tx) => {
          await tx.outbox.append(event(tenantId, `pay_w${w}`, marks[0]!));
          // Held open a while: later transactions draw later sequence numbers and commit first.
          await sleep((w * 7 + k * 3) % 13);
          await tx.outbox.append(event(tenantId, `pay_w${w}_${k % 2}`, marks[1]!));
          return k % 5 === 4 ? err('refused' as const, 'refused by the test') : ok(marks);
        });
        if (result.ok) committed.push({ marks, start, end: performance.now() });
        else rolledBack.push(...marks);
      }
    }));
    const expected = committed.flatMap((t) => t.marks);
    await eventually(async () => (onA.received.length >= expected.length ? true : undefined));
    // One more read after everything: nothing arrives twice.
    a.feed.wake();
    await a.feed.drain();
    onA.close();

    const delivered = onA.marks();
    expect(delivered.length).toBe(expected.length);
    expect(new Set(delivered)).toEqual(new Set(expected));
    expect(delivered.filter((m) => rolledBack.includes(m))).toEqual([]);
    const position = new Map(delivered.map((m, i) => [m, i]));
    // A transaction that finished before another started is delivered before it (its events in write order).
    for (const t of committed) {
      expect(position.get(t.marks[0]!)! < position.get(t.marks[1]!)!).toBe(true);
      for (const later of committed) {
        if (t.end < later.start) expect(position.get(t.marks[1]!)! < position.get(later.marks[0]!)!).toBe(true);
      }
    }
  });

  it('an event whose transaction drew an earlier sequence number but commits later is still delivered, after the one committed first', async () => {
    const tenantId = tenant();
    const onA = watch(a, tenantId);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let appended!: () => void;
    const early = new Promise<void>((resolve) => (appended = resolve));
    const slow = a.uow.transact(async (tx) => {
      await tx.outbox.append(event(tenantId, 'pay_slow', 'slow'));
      appended();
      await gate;
      return ok('slow');
    });
    await early;
    await commit(b, tenantId, 'pay_fast', 'fast');
    await eventually(async () => (onA.marks().includes('fast') ? true : undefined));
    expect(onA.marks()).toEqual(['fast']);
    release();
    await slow;
    await eventually(async () => (onA.marks().includes('slow') ? true : undefined));
    onA.close();
    expect(onA.marks()).toEqual(['fast', 'slow']);
    // The one committed last had drawn the lower sequence number: reading past a sequence would have lost it.
    const rows = await orm.em.fork().getConnection().execute<{ mark: string; seq: string }[]>(
      `select payload->>'mark' as mark, seq::text as seq from outbox_events where tenant_id = ? order by seq`, [tenantId]);
    expect(rows.map((r) => r.mark)).toEqual(['slow', 'fast']);
  });

  it('never delivers an event of a transaction that rolled back', async () => {
    const tenantId = tenant();
    const onA = watch(a, tenantId);
    const refused = await a.uow.transact(async (tx) => {
      await tx.outbox.append(event(tenantId, 'pay_rb', 'rolled-back'));
      return err('refused' as const, 'refused by the test');
    });
    expect(refused.ok).toBe(false);
    await expect(b.uow.transact(async (tx) => {
      await tx.outbox.append(event(tenantId, 'pay_rb', 'thrown'));
      throw new Error('fault after the write');
    })).rejects.toThrow('fault after the write');
    await commit(a, tenantId, 'pay_rb', 'after');
    await eventually(async () => (onA.marks().includes('after') ? true : undefined));
    a.feed.wake();
    await a.feed.drain();
    onA.close();
    expect(onA.marks()).toEqual(['after']);
  });

  it('after losing its LISTEN connection, catches up from its last read: every change committed meanwhile, once, in order', async () => {
    const tenantId = tenant();
    const onA = watch(a, tenantId);
    await commit(b, tenantId, 'pay_rc', 'before');
    await eventually(async () => (onA.marks().includes('before') ? true : undefined));
    // Cut A's LISTEN connection; B keeps committing while A cannot hear its notices.
    const killed = await orm.em.fork().getConnection().execute<{ pid: number }[]>(
      `select pg_terminate_backend(pid) as pid from pg_stat_activity
        where datname = current_database() and query ilike 'listen %' and pid <> pg_backend_pid()`);
    expect(killed.length).toBeGreaterThan(0);
    const during: string[] = [];
    for (let k = 0; k < 5; k += 1) {
      await commit(b, tenantId, `pay_rc_${k % 2}`, `during-${k}`);
      during.push(`during-${k}`);
    }
    await eventually(async () => (onA.marks().length >= 1 + during.length ? true : undefined));
    await commit(b, tenantId, 'pay_rc', 'after');
    await eventually(async () => (onA.marks().includes('after') ? true : undefined));
    onA.close();
    expect(onA.marks()).toEqual(['before', ...during, 'after']);
  });
});
