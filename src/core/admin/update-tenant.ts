import { SANDBOX_REFUND_ADDRESS, Tenant } from '../auth/tenant';
import { isWalletAddress } from '../payments/money-out-rules';
import { err, ok, type Result } from '../shared/result';
import { toTenantView, type AdminDeps, type AdminErrorCode, type TenantView } from './tenant-admin';

/** Highest per-key limit an operator may set, in requests per minute. */
export const MAX_RATE_LIMIT_PER_MINUTE = 1_000_000;

/** Highest webhook registration cap an operator may give a tenant (each event is POSTed once per registration). */
export const MAX_WEBHOOK_LIMIT = 1_000;

/**
 * Changes to a tenant's settings; an absent field is left as it is. `null` resets
 * `rateLimitPerMinute` and `webhookLimit` to the service defaults and clears `payoutRefundAddress` (which refuses the
 * tenant's legacy payouts until set again).
 */
export interface TenantPatch {
  readonly name?: string;
  /** Requests per minute per key, 1..MAX_RATE_LIMIT_PER_MINUTE, or null for the default. */
  readonly rateLimitPerMinute?: number | null;
  /** Webhook registrations allowed, 0..MAX_WEBHOOK_LIMIT, or null for the default; existing ones above it stay. */
  readonly webhookLimit?: number | null;
  readonly payoutSourceCurrency?: 'USDC' | 'USDT';
  readonly payoutBlockchain?: 'SOLANA' | 'BSC';
  /** A wallet address on the (new or current) payout blockchain, or null. */
  readonly payoutRefundAddress?: string | null;
}

/**
 * Updates a tenant's name, legacy payout settings (OpenAPI legacyPayout: what funds `/momo/payout`), rate
 * limit (docs/decisions.md § Rate limits and abuse limits) and webhook registration cap
 * (docs/decisions.md § Webhooks). The result must hold together: a refund address kept across a
 * change of chain must be valid on the new chain, and a live tenant cannot take the public sandbox address.
 * Concurrent changes apply one after the other (the store locks the row), so none is lost.
 * Errors: `not_found` (no such tenant), `validation_error` (blank name, a limit out of range,
 * malformed or sandbox address, empty patch).
 */
export async function updateTenant(deps: AdminDeps, tenantId: string, patch: TenantPatch): Promise<Result<TenantView, AdminErrorCode>> {
  if (Object.values(patch).every((v) => v === undefined)) return err('validation_error', 'Give at least one setting to change');
  const changed = await deps.tenants.modifyTenant(tenantId, (current) => applyPatch(current, patch));
  if (!changed) return err('not_found', `Tenant ${tenantId} not found`);
  if (!changed.ok) return changed;
  deps.onTenantUpdated?.(tenantId);
  return ok(toTenantView(changed.value));
}

/** `current` with `patch` applied, or why the result would not hold together. Pure. */
function applyPatch(current: Tenant, patch: TenantPatch): Result<Tenant, 'validation_error'> {
  const next = new Tenant({
    ...current,
    ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)),
    ...(patch.name !== undefined ? { name: patch.name.trim() } : {}),
  });
  if (next.name === '') return err('validation_error', 'name must not be blank', { field: 'name' });
  const limit = next.rateLimitPerMinute;
  if (limit !== null && (!Number.isInteger(limit) || limit < 1 || limit > MAX_RATE_LIMIT_PER_MINUTE)) {
    return err('validation_error', `rateLimitPerMinute must be an integer from 1 to ${MAX_RATE_LIMIT_PER_MINUTE}, or null`, { field: 'rateLimitPerMinute' });
  }
  const hooks = next.webhookLimit;
  if (hooks !== null && (!Number.isInteger(hooks) || hooks < 0 || hooks > MAX_WEBHOOK_LIMIT)) {
    return err('validation_error', `webhookLimit must be an integer from 0 to ${MAX_WEBHOOK_LIMIT}, or null`, { field: 'webhookLimit' });
  }
  if (next.payoutRefundAddress !== null && !isWalletAddress(next.payoutBlockchain, next.payoutRefundAddress)) {
    return err('validation_error', `payoutRefundAddress is not a valid ${next.payoutBlockchain} address`, { field: 'payoutRefundAddress' });
  }
  if (next.environment === 'live' && next.payoutRefundAddress === SANDBOX_REFUND_ADDRESS) {
    return err('validation_error', 'payoutRefundAddress is the public sandbox address; a live tenant needs its own', { field: 'payoutRefundAddress' });
  }
  return ok(next);
}
