import type { Tenant } from '../auth/tenant';
import type { CountryCode, PaymentMethod } from '../catalog/catalog';
import type { KycProvider } from '../customers/customer';
import type { PayoutProvider } from '../payments/payout-provider';

/** Which world a tenant lives in: sandbox (simulated rails) or live (real money). */
export type TenantEnvironment = Tenant['environment'];

/** The provider that serves a request, or why none does. */
export type Routed<P> =
  | { readonly kind: 'provider'; readonly provider: P }
  | { readonly kind: 'unavailable'; readonly reason: string };

/** A payout corridor as routing sees it: where the money goes and how. */
export interface PayoutCorridor {
  readonly country: CountryCode;
  readonly paymentMethod: PaymentMethod;
}

/**
 * Port: which provider serves a tenant's environment (docs/decisions.md § Customers and KYC,
 * § Sandbox values). The sandbox providers serve sandbox tenants only; live tenants are
 * `unavailable` until real rails implement this port. Pure decisions, no I/O.
 */
export interface ProviderRouting {
  payoutProviderFor(environment: TenantEnvironment, corridor: PayoutCorridor): Routed<PayoutProvider>;
  /** `country`: ISO 3166-1 alpha-2 of the customer. */
  kycProviderFor(environment: TenantEnvironment, country: string): Routed<KycProvider>;
}

/** Port: a tenant's environment (it never changes once the tenant exists); undefined for no such tenant. */
export interface TenantEnvironments {
  environmentOf(tenantId: string): Promise<TenantEnvironment | undefined>;
}

/** What routing needs: the decision and the tenant's environment. */
export interface RoutingDeps {
  readonly routing: ProviderRouting;
  readonly environments: TenantEnvironments;
}

/** How long work no provider serves (a pre-existing live payment or customer) waits before a worker looks again, in milliseconds. */
export const UNROUTED_RECHECK_MS = 60 * 60_000;

const UNKNOWN_TENANT: Routed<never> = { kind: 'unavailable', reason: 'unknown tenant' };

/** The payout provider for a tenant's payment in `corridor`; `unavailable` also for an unknown tenant. */
export async function payoutRoute(deps: RoutingDeps, tenantId: string, corridor: PayoutCorridor): Promise<Routed<PayoutProvider>> {
  const environment = await deps.environments.environmentOf(tenantId);
  return environment ? deps.routing.payoutProviderFor(environment, corridor) : UNKNOWN_TENANT;
}

/** The KYC provider for a tenant's customer of `country`; `unavailable` also for an unknown tenant. */
export async function kycRoute(deps: RoutingDeps, tenantId: string, country: string): Promise<Routed<KycProvider>> {
  const environment = await deps.environments.environmentOf(tenantId);
  return environment ? deps.routing.kycProviderFor(environment, country) : UNKNOWN_TENANT;
}
