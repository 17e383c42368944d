import { EntitySchema } from '@mikro-orm/core';
import { ApiKey } from '../../../core/auth/api-key';
import { Tenant } from '../../../core/auth/tenant';

/** Table `tenants` (docs/decisions.md § Authentication, tenants and keys). */
export const TenantSchema = new EntitySchema<Tenant>({
  class: Tenant,
  tableName: 'tenants',
  properties: {
    id: { type: 'string', primary: true, length: 40 },
    name: { type: 'string', length: 200 },
    environment: { type: 'string', length: 10 },
    payoutSourceCurrency: { type: 'string', length: 4, default: 'USDC' },
    payoutBlockchain: { type: 'string', length: 10, default: 'SOLANA' },
    payoutRefundAddress: { type: 'string', length: 64, nullable: true },
    rateLimitPerMinute: { type: 'integer', nullable: true },
    webhookLimit: { type: 'integer', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
  },
});

/** Table `api_keys`: hashed keys found by their unique lookup prefix (docs/decisions.md § Authentication, tenants and keys). */
export const ApiKeySchema = new EntitySchema<ApiKey>({
  class: ApiKey,
  tableName: 'api_keys',
  checks: [{
    // Admin keys are platform keys: never bound to a tenant (docs/decisions.md § Authentication, tenants and keys).
    // Revoked rows are exempt: the tenant-bound admin keys revoked by the migration that added this stay as evidence.
    name: 'api_keys_scope_tenant_check',
    expression: "revoked_at is not null or (scope = 'admin' and tenant_id is null) or (scope = 'issuer' and tenant_id is not null)",
  }],
  properties: {
    id: { type: 'string', primary: true, length: 40 },
    tenantId: { type: 'string', length: 40, nullable: true, index: true },
    scope: { type: 'string', length: 10 },
    lookup: { type: 'string', length: 12, unique: true },
    secretHash: { type: 'string', length: 64 },
    label: { type: 'string', length: 200 },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
    revokedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
  },
});
