import type { EntityManager } from '@mikro-orm/postgresql';
import { ApiKey, type ApiKeyReader, type ApiKeyScope } from '../../core/auth/api-key';
import type { ApiKeyAdminStore } from '../../core/admin/tenant-admin';
import { API_KEY_REVOKED_CHANNEL } from './notify-channels';
import { ApiKeySchema } from './schemas/tenant.schema';

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

/**
 * API keys on PostgreSQL (docs/decisions.md § Authentication, tenants and keys): the authentication
 * lookup and key administration. Tenants are TenantRepository's.
 */
export class ApiKeyRepository implements ApiKeyReader, ApiKeyAdminStore {
  constructor(private readonly em: EntityManager) {}

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

  /** Stores a new key (its lookup prefix and hash only). */
  async insertKey(key: ApiKey): Promise<void> {
    await this.em.fork().insert(ApiKeySchema, key);
  }

  /** A tenant's keys, or with `null` the platform's admin keys; oldest first. */
  async listKeys(tenantId: string | null): Promise<ApiKey[]> {
    return this.em.fork().find(ApiKeySchema, { tenantId }, { orderBy: { createdAt: 'asc' } });
  }

  /**
   * Sets revokedAt once and, in the same transaction, notifies API_KEY_REVOKED_CHANNEL with the key
   * id; returns false when no such key exists.
   */
  async revokeKey(keyId: string, at: Date): Promise<boolean> {
    const em = this.em.fork();
    if (!(await em.findOne(ApiKeySchema, { id: keyId }))) return false;
    await em.transactional(async (tem) => {
      await tem.nativeUpdate(ApiKeySchema, { id: keyId, revokedAt: null }, { revokedAt: at });
      // Every replica drops the key from its cache and closes its sockets when this commits.
      await tem.execute('select pg_notify(?, ?)', [API_KEY_REVOKED_CHANNEL, keyId]);
    });
    return true;
  }
}
