/**
 * A remembered request and its first response (docs/decisions.md § Idempotency). `fingerprint` is a keyed digest of
 * the canonical form of the validated command, so the same request through REST or GraphQL
 * matches and the store holds no clear account data (docs/decisions.md § Personal data and secrets).
 */
export interface IdempotencyRecord {
  readonly tenantId: string;
  readonly key: string;
  /** Operation name, e.g. `moneyout`. */
  readonly operation: string;
  readonly fingerprint: string;
  /** JSON body of the first response. */
  readonly responseBody: unknown;
  readonly resourceId: string;
  readonly createdAt: Date;
  /** Purged after this instant (IDEMPOTENCY_TTL_HOURS). */
  readonly expiresAt: Date;
}

/** Result of taking the per-(tenant, key) lock. */
export type IdempotencyLock =
  | { readonly kind: 'busy' }
  | { readonly kind: 'free'; readonly record: IdempotencyRecord | undefined };

/** Port: the idempotency store, used inside a unit of work. */
export interface IdempotencyStore {
  /**
   * Takes a transaction-scoped lock on (tenant, key) without waiting: `busy` when another
   * transaction holds it (the first request is still in flight); otherwise the stored record, if
   * any and not expired by the service clock. A new record is written with the payment it answers
   * for (NewPaymentWrite.idempotency), in the same transaction.
   */
  lock(tenantId: string, key: string): Promise<IdempotencyLock>;
}

/** RFC 4122 uuid of any version, case-insensitive (docs/decisions.md § Idempotency). */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Canonical JSON: object keys sorted at every level, undefined members dropped. Pure. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
