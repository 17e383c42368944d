import type { Tenant } from '../../core/auth/tenant';
import type { TenantEnvironment, TenantEnvironments } from '../../core/routing/provider-routing';

/** How long a tenant's changeable settings (its rate limit) are trusted on a replica that did not change them. */
const SETTINGS_TTL_MS = 30_000;

/**
 * One replica's cache of tenants, for the settings read on every request:
 * - the environment (TenantEnvironments port): it never changes after creation, so any cached copy answers;
 * - the requests-per-minute limit (docs/decisions.md § Rate limits and abuse limits): the tenant's
 *   override, else `fallback`, trusted for 30 s. A change applies at once on the replica that made
 *   it (`forget`), within 30 s on the others.
 * Unknown tenants are not cached. One entry per tenant that made a request, a few hundred bytes each.
 */
export class CachedTenantSettings implements TenantEnvironments {
  private readonly entries = new Map<string, { tenant: Tenant; until: number }>();
  // Bumped by `forget`, so a read that started before a change cannot cache the old settings after it.
  private readonly generations = new Map<string, number>();

  constructor(
    private readonly findTenant: (tenantId: string) => Promise<Tenant | undefined>,
    private readonly fallback: number,
    private readonly now: () => number = Date.now,
  ) {}

  async environmentOf(tenantId: string): Promise<TenantEnvironment | undefined> {
    return (this.entries.get(tenantId)?.tenant ?? (await this.load(tenantId)))?.environment;
  }

  /** Requests per minute per key of `tenantId`; `fallback` for a null tenant (admin keys), an unknown one or no override. */
  async limitOf(tenantId: string | null): Promise<number> {
    if (tenantId === null) return this.fallback;
    const hit = this.entries.get(tenantId);
    const tenant = hit && hit.until > this.now() ? hit.tenant : await this.load(tenantId);
    return tenant?.rateLimitPerMinute ?? this.fallback;
  }

  /** Stops trusting `tenantId`'s cached settings (they changed on this replica); its environment stays known. */
  forget(tenantId: string): void {
    const hit = this.entries.get(tenantId);
    if (hit) this.entries.set(tenantId, { tenant: hit.tenant, until: 0 });
    this.generations.set(tenantId, (this.generations.get(tenantId) ?? 0) + 1);
  }

  private async load(tenantId: string): Promise<Tenant | undefined> {
    const generation = this.generations.get(tenantId) ?? 0;
    const tenant = await this.findTenant(tenantId);
    if (tenant && (this.generations.get(tenantId) ?? 0) === generation) {
      this.entries.set(tenantId, { tenant, until: this.now() + SETTINGS_TTL_MS });
    }
    return tenant;
  }
}
