import type { EntityManager } from '@mikro-orm/postgresql';
import type { IdempotencyLock, IdempotencyRecord, IdempotencyStore } from '../../core/idempotency/idempotency';
import { IdempotencyKeySchema } from './schemas/outbox.schema';

/**
 * Idempotency store (DESIGN.md 6) on PostgreSQL. The in-flight lock is a transaction-scoped
 * advisory lock on hash(tenant, key), taken without waiting; it is released at commit or rollback,
 * after which the committed record is visible to the next holder.
 */
export class IdempotencyTxStore implements IdempotencyStore {
  constructor(private readonly em: EntityManager) {}

  async lock(tenantId: string, key: string): Promise<IdempotencyLock> {
    const [row] = await this.em.execute<{ locked: boolean }[]>(
      'select pg_try_advisory_xact_lock(hashtextextended(?, 0)) as locked',
      [`idem:${tenantId}:${key}`],
    );
    if (!row?.locked) return { kind: 'busy' };
    const record = await this.em.findOne(
      IdempotencyKeySchema,
      { tenantId, key, expiresAt: { $gt: new Date() } },
      { disableIdentityMap: true },
    );
    return { kind: 'free', record: record ?? undefined };
  }

  async save(record: IdempotencyRecord): Promise<void> {
    // An expired row may still be there until the purge: replace it.
    await this.em.upsert(IdempotencyKeySchema, { ...record }, { onConflictFields: ['tenantId', 'key'], onConflictAction: 'merge' });
  }
}

/** Deletes idempotency records past their expiry; returns how many were removed. */
export async function purgeExpiredIdempotencyKeys(em: EntityManager, now: Date): Promise<number> {
  return em.fork().nativeDelete(IdempotencyKeySchema, { expiresAt: { $lte: now } });
}
