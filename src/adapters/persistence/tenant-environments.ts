import type { Tenant } from '../../core/auth/tenant';
import type { TenantEnvironment, TenantEnvironments } from '../../core/routing/provider-routing';

/**
 * Tenants' environments (TenantEnvironments port), each read once and then kept: a tenant's
 * environment never changes after creation, so the cache cannot go stale. Unknown tenants are not
 * cached. One entry per tenant, a few dozen bytes each.
 */
export class CachedTenantEnvironments implements TenantEnvironments {
  private readonly known = new Map<string, TenantEnvironment>();

  constructor(private readonly findTenant: (tenantId: string) => Promise<Tenant | undefined>) {}

  async environmentOf(tenantId: string): Promise<TenantEnvironment | undefined> {
    const cached = this.known.get(tenantId);
    if (cached) return cached;
    const environment = (await this.findTenant(tenantId))?.environment;
    if (environment) this.known.set(tenantId, environment);
    return environment;
  }
}
