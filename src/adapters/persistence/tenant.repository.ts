import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import type { ApiKey } from '../../core/auth/api-key';
import { Tenant } from '../../core/auth/tenant';
import type { TenantAdminStore } from '../../core/admin/tenant-admin';
import type { IdGenerator } from '../../core/shared/clock';
import type { Result } from '../../core/shared/result';
import { createLedgerAccounts } from './ledger.repository';
import { ApiKeySchema, TenantSchema } from './schemas/tenant.schema';

/**
 * Tenants on PostgreSQL (docs/decisions.md § Authentication, tenants and keys): onboarding (a
 * tenant with its ledger accounts and first keys in one transaction), settings, and the lookups
 * routing, rate limits and the seed need. API keys are ApiKeyRepository's.
 */
export class TenantRepository implements TenantAdminStore {
  constructor(private readonly em: EntityManager, private readonly ids: IdGenerator) {}

  /** Inserts a tenant, its ledger accounts (all zero) and its first keys in one transaction. */
  async createTenantWithKeys(tenant: Tenant | undefined, keys: ApiKey[]): Promise<void> {
    await this.em.fork().transactional(async (tem) => {
      if (tenant) {
        await tem.insert(TenantSchema, tenant);
        await createLedgerAccounts(tem, tenant.id, this.ids, tenant.createdAt);
      }
      if (keys.length > 0) await tem.insertMany(ApiKeySchema, keys);
    });
  }

  /** The tenant with `tenantId`, or undefined. */
  async findTenant(tenantId: string): Promise<Tenant | undefined> {
    return (await this.em.fork().findOne(TenantSchema, { id: tenantId })) ?? undefined;
  }

  /** The first tenant created (the seeded sandbox tenant), or undefined on an empty database. */
  async oldestTenant(): Promise<Tenant | undefined> {
    return (await this.em.fork().findOne(TenantSchema, { id: { $ne: null } }, { orderBy: { createdAt: 'asc' } })) ?? undefined;
  }

  /** Inserts `tenant` with its ledger accounts and no keys. */
  async createTenant(tenant: Tenant): Promise<void> {
    await this.createTenantWithKeys(tenant, []);
  }

  /** See TenantAdminStore.modifyTenant: read under a row lock, changed by `change`, written in one transaction. */
  async modifyTenant<E extends string>(tenantId: string, change: (current: Tenant) => Result<Tenant, E>): Promise<Result<Tenant, E> | undefined> {
    return this.em.fork().transactional(async (tem) => {
      const current = await tem.findOne(TenantSchema, { id: tenantId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!current) return undefined;
      const next = change(new Tenant({ ...current }));
      if (!next.ok) return next;
      const { name, payoutSourceCurrency, payoutBlockchain, payoutRefundAddress, rateLimitPerMinute, webhookLimit } = next.value;
      await tem.nativeUpdate(TenantSchema, { id: tenantId }, { name, payoutSourceCurrency, payoutBlockchain, payoutRefundAddress, rateLimitPerMinute, webhookLimit });
      return next;
    });
  }

  /** Every tenant, oldest first. */
  async listTenants(): Promise<Tenant[]> {
    return this.em.fork().find(TenantSchema, { id: { $ne: null } }, { orderBy: { createdAt: 'asc' } });
  }

  /** How many tenants exist (0 on a first start). */
  async countTenants(): Promise<number> {
    return this.em.fork().count(TenantSchema, {});
  }
}
