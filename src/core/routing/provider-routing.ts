import type { Tenant } from '../auth/tenant';
import type { CountryCode, PaymentMethod } from '../catalog/catalog';
import type { KycProvider } from '../customers/customer';
import type { PayoutProvider } from '../payments/payout-provider';
import type { RoutingStrategy } from './success-rate-scoring';

/** Which world a tenant lives in: sandbox (simulated rails) or live (real money). */
export type TenantEnvironment = Tenant['environment'];

/** The provider that serves a request, or why none does. */
export type Routed<P> =
  | { readonly kind: 'provider'; readonly provider: P }
  | { readonly kind: 'unavailable'; readonly reason: string };

/** A payout corridor as routing sees it: where the money goes, how, and through which operator or bank. */
export interface PayoutCorridor {
  readonly country: CountryCode;
  readonly paymentMethod: PaymentMethod;
  /** The operator code (MOMO, PAYBILL, TILL) or bank code (BANK) of the payment, as the catalog lists it. */
  readonly paymentCode: string;
}

/** A configured provider of a corridor and whether its circuit lets calls through. */
export interface RouteCandidateName {
  readonly name: string;
  readonly healthy: boolean;
}

/**
 * The payout providers that may carry a corridor's payment, in the order to try them
 * (docs/decisions.md § Payout providers: routing and failover), or why none may:
 * - `not_served`: no provider is configured for the corridor at all in this deployment, a
 *   permanent answer until the configuration changes (a money-out is 422 `corridor_not_available`);
 * - `unavailable`: providers are configured but none takes calls now (open circuits), or the tenant
 *   is unknown; `retryAfterMs`, when set, is how soon to look again (a money-out is 503
 *   `provider_unavailable` with `Retry-After`).
 */
export type PayoutRouted =
  | {
    readonly kind: 'providers';
    /** The healthy providers in the routing table's order. */
    readonly providers: readonly [PayoutProvider, ...PayoutProvider[]];
    /** How the payout worker orders them (docs/decisions.md § Payout providers: routing on measured success); absent: `ordered`. */
    readonly strategy?: RoutingStrategy;
    /** Every configured provider of the corridor in table order, healthy or not (circuit open), for the decision record. */
    readonly candidates?: readonly RouteCandidateName[];
  }
  | { readonly kind: 'not_served'; readonly reason: string }
  | { readonly kind: 'unavailable'; readonly reason: string; readonly retryAfterMs?: number };

/**
 * Port: which provider serves a tenant's environment (docs/decisions.md § Customers and KYC,
 * § Sandbox values, § Payout providers: routing and failover). The sandbox providers serve sandbox
 * tenants only and never live ones; live tenants get the real providers the catalog's routing
 * table names for the corridor, configured and healthy, or `unavailable`. Pure decisions, no I/O.
 */
export interface ProviderRouting {
  /** The providers to try for a new payment of `corridor`, first choice first. */
  payoutProvidersFor(environment: TenantEnvironment, corridor: PayoutCorridor): PayoutRouted;
  /**
   * The provider named `name` (`PayoutProvider.name`) when it serves `environment`, healthy or not:
   * status queries and callbacks of a payment go to the provider that has it. Undefined when no
   * such provider is configured for that environment.
   */
  payoutProviderNamed(environment: TenantEnvironment, name: string): PayoutProvider | undefined;
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

const UNKNOWN_TENANT = { kind: 'unavailable', reason: 'unknown tenant' } as const;

/** The payout providers for a tenant's payment in `corridor`, in order; `unavailable` also for an unknown tenant. */
export async function payoutRoute(deps: RoutingDeps, tenantId: string, corridor: PayoutCorridor): Promise<PayoutRouted> {
  const environment = await deps.environments.environmentOf(tenantId);
  return environment ? deps.routing.payoutProvidersFor(environment, corridor) : UNKNOWN_TENANT;
}

/** The provider named `name` serving the tenant's environment; undefined for an unknown tenant or provider. */
export async function namedPayoutProvider(deps: RoutingDeps, tenantId: string, name: string): Promise<PayoutProvider | undefined> {
  const environment = await deps.environments.environmentOf(tenantId);
  return environment ? deps.routing.payoutProviderNamed(environment, name) : undefined;
}

/** The KYC provider for a tenant's customer of `country`; `unavailable` also for an unknown tenant. */
export async function kycRoute(deps: RoutingDeps, tenantId: string, country: string): Promise<Routed<KycProvider>> {
  const environment = await deps.environments.environmentOf(tenantId);
  return environment ? deps.routing.kycProviderFor(environment, country) : UNKNOWN_TENANT;
}
