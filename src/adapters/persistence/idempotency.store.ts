import type { EntityManager } from '@mikro-orm/postgresql';
import type { IdempotencyLock, IdempotencyRecord, IdempotencyStore } from '../../core/idempotency/idempotency';
import type { Clock } from '../../core/shared/clock';
import { IdempotencyKeySchema } from './schemas/outbox.schema';
import { insertStatement } from './raw-insert';

interface IdempotencyRow {
  operation: string; fingerprint: string; response_body: unknown; resource_id: string;
  created_at: Date; expires_at: Date;
}

const UPSERT = `on conflict (tenant_id, key) do update set operation = excluded.operation, fingerprint = excluded.fingerprint,
  response_body = excluded.response_body, resource_id = excluded.resource_id,
  created_at = excluded.created_at, expires_at = excluded.expires_at`;

/** The advisory lock of one tenant's idempotency key, taken without waiting; one parameter, idempotencyLockKey's text. */
export const IDEMPOTENCY_LOCK_SQL = 'pg_try_advisory_xact_lock(hashtextextended(?, 0))';

/** The text the lock of (tenant, key) is hashed from: the same for every path that writes under a key. */
export function idempotencyLockKey(tenantId: string, key: string): string {
  return `idem:${tenantId}:${key}`;
}

/** The condition on `idempotency_keys` of a record that still counts; parameters: tenant, key, now. */
export const LIVE_RECORD_SQL = 'tenant_id = ? and key = ? and expires_at > ?';

/**
 * Idempotency store (docs/decisions.md § Idempotency) on PostgreSQL. The in-flight lock is a transaction-scoped
 * advisory lock on hash(tenant, key), taken without waiting; it is released at commit or rollback,
 * after which the committed record is visible to the next holder. A record counts until its
 * `expiresAt`, judged by the service's clock (the one that set it).
 */
export class IdempotencyTxStore implements IdempotencyStore {
  constructor(private readonly em: EntityManager, private readonly clock: Clock) {}

  async lock(tenantId: string, key: string): Promise<IdempotencyLock> {
    // Two statements in one round trip (one simple query): each takes its own snapshot, so the
    // lookup, which runs after the lock is held, sees what the previous holder committed. When the
    // lock is busy the lookup's answer is ignored.
    const platform = this.em.getPlatform();
    const [[lock], [row]] = await this.em.execute<[{ locked: boolean }[], IdempotencyRow[]]>([
      platform.formatQuery(`select ${IDEMPOTENCY_LOCK_SQL} as locked`, [idempotencyLockKey(tenantId, key)]),
      platform.formatQuery(
        `select fingerprint, response_body, resource_id, operation, created_at, expires_at from idempotency_keys where ${LIVE_RECORD_SQL}`,
        [tenantId, key, this.clock.now()]),
    ].join(';\n'));
    if (!lock?.locked) return { kind: 'busy' };
    return {
      kind: 'free',
      record: row && {
        tenantId, key, operation: row.operation, fingerprint: row.fingerprint,
        responseBody: row.response_body, resourceId: row.resource_id, createdAt: row.created_at, expiresAt: row.expires_at,
      },
    };
  }

}

/**
 * The statement that stores `record`, sent with the payment it answers for (PaymentTxRepository.create);
 * an expired row may still be there until the purge, so it replaces it.
 */
export function idempotencySaveStatement(em: EntityManager, record: IdempotencyRecord): [string, unknown[]] {
  return insertStatement(em, IdempotencyKeySchema, record, UPSERT);
}

/** Deletes idempotency records past their expiry; returns how many were removed. */
export async function purgeExpiredIdempotencyKeys(em: EntityManager, now: Date): Promise<number> {
  return em.fork().nativeDelete(IdempotencyKeySchema, { expiresAt: { $lte: now } });
}
