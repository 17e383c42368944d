import type { Tenant } from '../../core/auth/tenant';

/** How long a tenant's rate limit is kept on a replica that did not make the change. */
const RATE_LIMIT_TTL_MS = 30_000;

/**
 * Tenants' requests-per-minute limits (docs/decisions.md § Rate limits and abuse limits): a tenant's
 * override, else `fallback`, cached for 30 s per tenant. A change applies at once on the replica
 * that made it (`forget`), within 30 s on the others. Only known tenants are cached.
 */
export class CachedTenantRateLimits {
  private readonly cache = new Map<string, { limit: number; until: number }>();
  // Bumped by `forget`, so a read that started before a change cannot cache the old limit after it.
  private readonly generations = new Map<string, number>();

  constructor(
    private readonly findTenant: (tenantId: string) => Promise<Tenant | undefined>,
    private readonly fallback: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Requests per minute per key of `tenantId`; `fallback` for a null tenant (admin keys) or no override. */
  async limitOf(tenantId: string | null): Promise<number> {
    if (tenantId === null) return this.fallback;
    const hit = this.cache.get(tenantId);
    if (hit && hit.until > this.now()) return hit.limit;
    const generation = this.generations.get(tenantId) ?? 0;
    const limit = (await this.findTenant(tenantId))?.rateLimitPerMinute ?? this.fallback;
    if ((this.generations.get(tenantId) ?? 0) === generation) this.cache.set(tenantId, { limit, until: this.now() + RATE_LIMIT_TTL_MS });
    return limit;
  }

  /** Drops `tenantId`'s cached limit (its settings changed on this replica). */
  forget(tenantId: string): void {
    this.cache.delete(tenantId);
    this.generations.set(tenantId, (this.generations.get(tenantId) ?? 0) + 1);
  }
}
