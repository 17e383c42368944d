import type { ApiKey, ApiKeyReader } from '../../core/auth/api-key';

/**
 * Keeps found keys in memory for `ttlMs` so authentication costs no query on the hot path.
 * Entries are keyed by the stored key's secret hash, not by its lookup prefix: only a caller who
 * presents the whole key is answered from memory, and a wrong secret for a known prefix goes to
 * the store exactly like an unknown prefix, so response times do not reveal which prefixes exist
 * (docs/decisions.md § Authentication, tenants and keys). Nothing is cached for a miss, so an
 * attacker's guesses cannot grow the cache. `invalidate()` drops entries at once (called on
 * revocation in this process); other replicas see a revocation through NOTIFY, within `ttlMs` at
 * most (AUTH_CACHE_TTL_MS).
 */
export class CachedApiKeyReader implements ApiKeyReader {
  private readonly entries = new Map<string, { key: ApiKey; until: number }>();

  constructor(private readonly inner: ApiKeyReader, private readonly ttlMs: number, private readonly now: () => number = Date.now) {}

  async findByLookup(lookup: string, secretHash: string): Promise<ApiKey | undefined> {
    const hit = this.entries.get(secretHash);
    if (hit && hit.until > this.now()) return hit.key;
    this.entries.delete(secretHash);
    const key = await this.inner.findByLookup(lookup, secretHash);
    if (key && this.ttlMs > 0) this.entries.set(key.secretHash, { key, until: this.now() + this.ttlMs });
    return key;
  }

  /** Forgets `keyId`, or every key when omitted. */
  invalidate(keyId?: string): void {
    if (keyId === undefined) return this.entries.clear();
    for (const [hash, entry] of this.entries) if (entry.key.id === keyId) this.entries.delete(hash);
  }
}
