import { ApiKey, lookupOf, type ApiKeyScope, type SecretHasher } from '../auth/api-key';
import { newTenant, type Tenant } from '../auth/tenant';
import type { Clock, IdGenerator } from '../shared/clock';
import { err, ok, type Result } from '../shared/result';

/** Closed set of expected failures of tenant and key administration (docs/decisions.md § Authentication, tenants and keys). */
export type AdminErrorCode = 'validation_error' | 'not_found';

/** Port: tenants, across tenants (admin scope only). */
export interface TenantAdminStore {
  /** Inserts the tenant with its ledger accounts (and no keys). */
  createTenant(tenant: Tenant): Promise<void>;
  listTenants(): Promise<Tenant[]>;
  findTenant(tenantId: string): Promise<Tenant | undefined>;
  /**
   * Changes a tenant under a row lock: in one transaction, reads it locked, calls `change` with it
   * and, when that is ok, writes the name, payout settings and rate limit it returns (id,
   * environment and createdAt never change). Concurrent changes thus apply one after the other.
   * Returns undefined when no such tenant exists.
   */
  modifyTenant<E extends string>(tenantId: string, change: (current: Tenant) => Result<Tenant, E>): Promise<Result<Tenant, E> | undefined>;
}

/** Port: API keys of every tenant and the platform's admin keys (admin scope only). */
export interface ApiKeyAdminStore {
  insertKey(key: ApiKey): Promise<void>;
  /** A tenant's keys, or with `null` the platform's admin keys; oldest first. */
  listKeys(tenantId: string | null): Promise<ApiKey[]>;
  /** Sets revokedAt once; returns false when no such key exists. */
  revokeKey(keyId: string, at: Date): Promise<boolean>;
}

/** Port: makes new random keys `sk_<environment>_<random>` (docs/decisions.md § Authentication, tenants and keys). */
export interface ApiKeyFactory {
  generate(environment: 'sandbox' | 'live'): string;
}

/** Ports and settings of the admin use cases. */
export interface AdminDeps {
  readonly tenants: TenantAdminStore;
  readonly keys: ApiKeyAdminStore;
  readonly keyFactory: ApiKeyFactory;
  readonly hasher: SecretHasher;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** Called after a key is revoked, e.g. to close its open subscriptions on every replica. */
  readonly onKeyRevoked?: (keyId: string) => void | Promise<void>;
  /** Called after a tenant's settings change, e.g. to drop this replica's cached rate limit. */
  readonly onTenantUpdated?: (tenantId: string) => void;
}

/** A key as listed: never the secret, only a recognisable prefix. */
export interface ApiKeyView {
  keyId: string;
  tenantId: string | null;
  scope: ApiKeyScope;
  label: string;
  /** e.g. `sk_sandbox_AbCdEfGhIjKl...`: the lookup prefix, enough to recognise a key. */
  prefix: string;
  createdAt: string;
  revokedAt: string | null;
}

/** A tenant as listed, with the settings an operator manages (docs/decisions.md § Authentication, tenants and keys; OpenAPI legacyPayout for the payout settings). */
export interface TenantView {
  tenantId: string;
  name: string;
  environment: 'sandbox' | 'live';
  /** Stablecoin funding legacy payouts. */
  payoutSourceCurrency: 'USDC' | 'USDT';
  /** Chain of legacy payouts' stablecoin leg. */
  payoutBlockchain: 'SOLANA' | 'BSC';
  /** Where failed legacy payouts are refunded; null refuses legacy payouts (`tenant_not_configured`). */
  payoutRefundAddress: string | null;
  /** Requests per minute per key; null: the service default. */
  rateLimitPerMinute: number | null;
  /** Webhook registrations the tenant may have; null: the service default. */
  webhookLimit: number | null;
  createdAt: string;
}

/** The view of a tenant. Pure. */
export const toTenantView = (t: Tenant): TenantView => ({
  tenantId: t.id, name: t.name, environment: t.environment, payoutSourceCurrency: t.payoutSourceCurrency, payoutBlockchain: t.payoutBlockchain,
  payoutRefundAddress: t.payoutRefundAddress, rateLimitPerMinute: t.rateLimitPerMinute, webhookLimit: t.webhookLimit, createdAt: t.createdAt.toISOString(),
});

function toKeyView(key: ApiKey, environment: string): ApiKeyView {
  return {
    keyId: key.id, tenantId: key.tenantId, scope: key.scope, label: key.label, prefix: `sk_${environment}_${key.lookup}...`,
    createdAt: key.createdAt.toISOString(), revokedAt: key.revokedAt?.toISOString() ?? null,
  };
}

/** Creates a tenant (wallet issuer) with empty balances. Errors: `validation_error` (blank name). */
export async function createTenant(
  deps: AdminDeps,
  input: { name: string; environment?: 'sandbox' | 'live'; rateLimitPerMinute?: number },
): Promise<Result<TenantView, AdminErrorCode>> {
  if (input.name.trim() === '') return err('validation_error', 'name must not be blank', { field: 'name' });
  const tenant = newTenant({
    id: deps.ids.next('ten'), name: input.name.trim(), environment: input.environment ?? 'sandbox', createdAt: deps.clock.now(),
    ...(input.rateLimitPerMinute !== undefined ? { rateLimitPerMinute: input.rateLimitPerMinute } : {}),
  });
  await deps.tenants.createTenant(tenant);
  return ok(toTenantView(tenant));
}

/** Every tenant, oldest first. */
export async function listTenants(deps: AdminDeps): Promise<TenantView[]> {
  return (await deps.tenants.listTenants()).map(toTenantView);
}

/**
 * Issues an issuer key for a tenant (docs/decisions.md § Authentication, tenants and keys). The clear key is in the result once and never
 * stored: only its lookup prefix and SHA-256. Admin keys are platform keys with no tenant, so
 * `scope: admin` is refused here, for every transport (docs/decisions.md § Authentication,
 * tenants and keys). Errors: `validation_error` (scope admin), `not_found` (no such tenant).
 */
export async function issueApiKey(
  deps: AdminDeps,
  tenantId: string,
  input: { scope: ApiKeyScope; label?: string },
): Promise<Result<ApiKeyView & { apiKey: string }, AdminErrorCode>> {
  if (input.scope !== 'issuer') {
    return err('validation_error', 'scope must be issuer: a tenant\'s key cannot be an admin key (admin keys belong to no tenant)', { field: 'scope' });
  }
  const tenant = await deps.tenants.findTenant(tenantId);
  if (!tenant) return err('not_found', `Tenant ${tenantId} not found`);
  const apiKey = deps.keyFactory.generate(tenant.environment);
  const key = new ApiKey({
    id: deps.ids.next('key'), tenantId, scope: input.scope, lookup: lookupOf(apiKey)!, secretHash: deps.hasher.hash(apiKey),
    label: input.label ?? `${input.scope} key`, createdAt: deps.clock.now(), revokedAt: null,
  });
  await deps.keys.insertKey(key);
  return ok({ ...toKeyView(key, tenant.environment), apiKey });
}

/** The prefix shown for platform keys: they act on real tenants whatever the deployment. */
const ADMIN_KEY_ENVIRONMENT = 'live';

/**
 * Issues a platform admin key: no tenant, `admin` scope (docs/decisions.md § Authentication,
 * tenants and keys). Operators use it to rotate admin keys without a restart; the clear key is in
 * the result once, only its lookup prefix and SHA-256 are stored. No expected failure.
 */
export async function issueAdminKey(deps: AdminDeps, input: { label?: string }): Promise<ApiKeyView & { apiKey: string }> {
  const apiKey = deps.keyFactory.generate(ADMIN_KEY_ENVIRONMENT);
  const key = new ApiKey({
    id: deps.ids.next('key'), tenantId: null, scope: 'admin', lookup: lookupOf(apiKey)!, secretHash: deps.hasher.hash(apiKey),
    label: input.label ?? 'admin key', createdAt: deps.clock.now(), revokedAt: null,
  });
  await deps.keys.insertKey(key);
  return { ...toKeyView(key, ADMIN_KEY_ENVIRONMENT), apiKey };
}

/** The platform's admin keys without secrets, revoked ones included, oldest first. */
export async function listAdminKeys(deps: AdminDeps): Promise<ApiKeyView[]> {
  return (await deps.keys.listKeys(null)).map((k) => toKeyView(k, ADMIN_KEY_ENVIRONMENT));
}

/** Lists a tenant's keys without secrets. Errors: `not_found` (no such tenant). */
export async function listApiKeys(deps: AdminDeps, tenantId: string): Promise<Result<ApiKeyView[], AdminErrorCode>> {
  const tenant = await deps.tenants.findTenant(tenantId);
  if (!tenant) return err('not_found', `Tenant ${tenantId} not found`);
  return ok((await deps.keys.listKeys(tenantId)).map((k) => toKeyView(k, tenant.environment)));
}

/** Revokes a key at once: the next request with it is 401, its open subscriptions close. Errors: `not_found`. */
export async function revokeApiKey(deps: AdminDeps, keyId: string): Promise<Result<void, AdminErrorCode>> {
  if (!(await deps.keys.revokeKey(keyId, deps.clock.now()))) return err('not_found', `API key ${keyId} not found`);
  await deps.onKeyRevoked?.(keyId);
  return ok(undefined);
}
