import type { ApiKey, ApiKeyReader } from '../../core/auth/api-key';

/**
 * Keeps found keys in memory for `ttlMs` so authentication costs no query on the hot path.
 * `invalidate()` drops entries at once (called on revocation in this process); other replicas
 * see a revocation within `ttlMs` at most (AUTH_CACHE_TTL_MS). Unknown keys are not cached.
 */
export class CachedApiKeyReader implements ApiKeyReader {
  private readonly entries = new Map<string, { key: ApiKey; until: number }>();

  constructor(private readonly inner: ApiKeyReader, private readonly ttlMs: number, private readonly now: () => number = Date.now) {}

  async findByLookup(lookup: string): Promise<ApiKey | undefined> {
    const hit = this.entries.get(lookup);
    if (hit && hit.until > this.now()) return hit.key;
    const key = await this.inner.findByLookup(lookup);
    if (key && this.ttlMs > 0) this.entries.set(lookup, { key, until: this.now() + this.ttlMs });
    else this.entries.delete(lookup);
    return key;
  }

  /** Forgets `keyId`, or every key when omitted. */
  invalidate(keyId?: string): void {
    if (keyId === undefined) return this.entries.clear();
    for (const [lookup, entry] of this.entries) if (entry.key.id === keyId) this.entries.delete(lookup);
  }
}
