import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import { ApiKey, type ApiKeyReader, type ApiKeyScope } from '../../core/auth/api-key';
import { Tenant } from '../../core/auth/tenant';
import type { TenantAdminStore } from '../../core/admin/tenant-admin';
import { ApiKeySchema, TenantSchema } from './schemas/tenant.schema';
import type { IdGenerator } from '../../core/shared/clock';
import type { Result } from '../../core/shared/result';
import { createLedgerAccounts } from './ledger.repository';

/** A row of `api_keys` as PostgreSQL returns it. */
interface ApiKeyRow {
  id: string;
  tenant_id: string | null;
  scope: ApiKeyScope;
  lookup: string;
  secret_hash: string;
  label: string;
  created_at: Date | string;
  revoked_at: Date | string | null;
}

/** NOTIFY channel carrying the id of each revoked key. */
export const API_KEY_REVOKED_CHANNEL = 'api_key_revoked';

/** API keys and tenants on PostgreSQL (docs/decisions.md § Authentication, tenants and keys): authentication lookups and administration. */
export class ApiKeyRepository implements ApiKeyReader, TenantAdminStore {
  constructor(private readonly em: EntityManager, private readonly ids: IdGenerator) {}

  /**
   * The key with `lookup`, in one SQL statement: a found row is mapped by hand, so a known prefix
   * costs what an unknown one does (no ORM hydration; docs/decisions.md § Authentication, tenants
   * and keys) and authentication stays off the ORM.
   */
  async findByLookup(lookup: string): Promise<ApiKey | undefined> {
    const [row] = await this.em.getConnection().execute<ApiKeyRow[]>(
      'select id, tenant_id, scope, lookup, secret_hash, label, created_at, revoked_at from api_keys where lookup = ?', [lookup]);
    return row && new ApiKey({
      id: row.id, tenantId: row.tenant_id, scope: row.scope, lookup: row.lookup, secretHash: row.secret_hash, label: row.label,
      createdAt: new Date(row.created_at), revokedAt: row.revoked_at === null ? null : new Date(row.revoked_at),
    });
  }

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

  async findTenant(tenantId: string): Promise<Tenant | undefined> {
    return (await this.em.fork().findOne(TenantSchema, { id: tenantId })) ?? undefined;
  }

  async oldestTenant(): Promise<Tenant | undefined> {
    return (await this.em.fork().findOne(TenantSchema, { id: { $ne: null } }, { orderBy: { createdAt: 'asc' } })) ?? undefined;
  }

  async createTenant(tenant: Tenant): Promise<void> {
    await this.createTenantWithKeys(tenant, []);
  }

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

  async listTenants(): Promise<Tenant[]> {
    return this.em.fork().find(TenantSchema, { id: { $ne: null } }, { orderBy: { createdAt: 'asc' } });
  }

  async insertKey(key: ApiKey): Promise<void> {
    await this.em.fork().insert(ApiKeySchema, key);
  }

  async listKeys(tenantId: string | null): Promise<ApiKey[]> {
    return this.em.fork().find(ApiKeySchema, { tenantId }, { orderBy: { createdAt: 'asc' } });
  }

  async revokeKey(keyId: string, at: Date): Promise<boolean> {
    const em = this.em.fork();
    if (!(await em.findOne(ApiKeySchema, { id: keyId }))) return false;
    await em.transactional(async (tem) => {
      await tem.nativeUpdate(ApiKeySchema, { id: keyId, revokedAt: null }, { revokedAt: at });
      // Every replica drops the key from its cache when this commits (see PgNotificationListener).
      await tem.execute('select pg_notify(?, ?)', [API_KEY_REVOKED_CHANNEL, keyId]);
    });
    return true;
  }

  async countTenants(): Promise<number> {
    return this.em.fork().count(TenantSchema, {});
  }
}
