import type { EntityManager } from '@mikro-orm/postgresql';
import { purgeExpiredIdempotencyKeys } from '../persistence/idempotency.store';
import { QuoteSchema } from '../persistence/schemas/quote.schema';

/** Expired quotes are kept this long for support questions, then deleted (payments keep their own rate). */
const QUOTE_RETENTION_MS = 7 * 86_400_000;

/**
 * One purge pass (docs/decisions.md § Idempotency): idempotency keys past their TTL, and quotes expired more than
 * seven days ago. Returns the counts removed. Safe on any number of replicas at once.
 */
export async function purgeExpired(em: EntityManager, now: Date): Promise<{ idempotencyKeys: number; quotes: number }> {
  const idempotencyKeys = await purgeExpiredIdempotencyKeys(em, now);
  const quotes = await em.fork().nativeDelete(QuoteSchema, { expiresAt: { $lte: new Date(now.getTime() - QUOTE_RETENTION_MS) } });
  return { idempotencyKeys, quotes };
}
