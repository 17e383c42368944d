import { MikroORM } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import { ormOptions } from '../../src/adapters/persistence/mikro-orm.config';
import { BatchingUnitOfWork } from '../../src/adapters/persistence/batching-unit-of-work';
import { MikroUnitOfWork } from '../../src/adapters/persistence/unit-of-work';
import { systemClock, ulidGenerator } from '../../src/adapters/providers/system';
import type { OutboxEvent } from '../../src/core/events/outbox-event';
import { err, ok } from '../../src/core/shared/result';
import type { TransactionContext } from '../../src/core/shared/unit-of-work';

/** The payout worker's batching unit of work (docs/decisions.md § Performance) on the real database. */
describe('batching unit of work', () => {
  let orm: MikroORM;
  const ids = ulidGenerator();
  beforeAll(async () => {
    orm = await MikroORM.init(ormOptions(process.env.TEST_DATABASE_URL!, 6));
  });
  afterAll(() => orm.close(true));

  const batching = () => new BatchingUnitOfWork(orm.em, ids, systemClock, new MikroUnitOfWork(orm.em, ids, systemClock));
  const event = (id: string): OutboxEvent => ({
    id, tenantId: 'ten_batch', type: 'payment.initiated', entityId: `pay_${id.slice(0, 8)}`, payload: { status: 'initiated' }, createdAt: new Date(),
  });
  const write = (id: string) => async (tx: TransactionContext) => {
    await tx.outbox.append(event(id));
    return ok(id);
  };
  /** Transaction id (xmin) of each written outbox row, by event id. */
  const writers = async (eventIds: string[]) => {
    const rows = await orm.em.fork().getConnection().execute<{ id: string; xmin: string }[]>(
      'select id, xmin::text as xmin from outbox_events where id in (?)', [eventIds]);
    return new Map(rows.map((r) => [r.id, r.xmin]));
  };

  it('runs the units asked for together in one transaction and answers each after its commit', async () => {
    const uow = batching();
    const eventIds = Array.from({ length: 5 }, () => randomUUID());
    const results = await Promise.all(eventIds.map((id) => uow.transact(write(id))));
    expect(results).toEqual(eventIds.map((id) => ok(id)));
    const xmins = await writers(eventIds);
    expect(xmins.size).toBe(5);
    expect(new Set(xmins.values()).size).toBe(1);
  });

  it('a refused unit leaves nothing and undoes no other unit: the batch runs again unit by unit', async () => {
    const uow = batching();
    const kept = [randomUUID(), randomUUID(), randomUUID()];
    const refused = randomUUID();
    const results = await Promise.all([
      uow.transact(write(kept[0]!)),
      uow.transact(async (tx) => {
        await tx.outbox.append(event(refused));
        return err('invalid_transition', 'refused after writing');
      }),
      uow.transact(write(kept[1]!)),
      uow.transact(write(kept[2]!)),
    ]);
    expect(results.map((r) => r.ok)).toEqual([true, false, true, true]);
    const xmins = await writers([...kept, refused]);
    expect([...xmins.keys()].sort()).toEqual([...kept].sort());
  });

  it('a unit that throws rejects its own caller only', async () => {
    const uow = batching();
    const kept = randomUUID();
    const [good, bad] = await Promise.allSettled([
      uow.transact(write(kept)),
      uow.transact(async () => {
        throw new Error('fault');
      }),
    ]);
    expect(good).toEqual({ status: 'fulfilled', value: ok(kept) });
    expect(bad).toMatchObject({ status: 'rejected', reason: new Error('fault') });
    expect((await writers([kept])).size).toBe(1);
  });
});
