import { payoutRouteOf, type Catalog } from '../../core/catalog/catalog';
import type { KycProvider } from '../../core/customers/customer';
import type { PayoutProvider } from '../../core/payments/payout-provider';
import type {
  PayoutCorridor, PayoutRouted, ProviderRouting, Routed, TenantEnvironment,
} from '../../core/routing/provider-routing';

const NO_LIVE_KYC: Routed<never> = { kind: 'unavailable', reason: 'no KYC provider serves live tenants yet' };

/** A live KYC provider and the countries (ISO 3166-1 alpha-2) it can check (docs/providers.md § Smile ID). */
export interface LiveKyc {
  readonly provider: KycProvider;
  readonly countries: ReadonlySet<string>;
}

/**
 * Routing by the catalog's routing table (docs/decisions.md § Payout providers: routing and
 * failover). Sandbox tenants always get the sandbox providers, whatever the table says; live tenants
 * never do: they get the live providers the table lists for the corridor that are configured and,
 * per `isHealthy` (the circuit breakers), not refusing calls, in the table's order. A live corridor
 * no configured provider serves is `not_served` (the money-out answers 422 corridor_not_available);
 * one whose configured providers all refuse calls is `unavailable` for `unhealthyRecheckMs` (503
 * provider_unavailable with Retry-After). Either is answered before anything is held. A live
 * route carries the row's strategy and every configured candidate with its health, for the payout
 * worker's decision (docs/decisions.md § Payout providers: routing on measured success).
 * `live` are the configured real providers, by `PayoutProvider.name`.
 */
export class CatalogRouting implements ProviderRouting {
  private readonly live: ReadonlyMap<string, PayoutProvider>;

  constructor(
    private readonly catalog: Catalog,
    private readonly sandbox: { readonly payouts: PayoutProvider; readonly kyc: KycProvider },
    live: readonly PayoutProvider[],
    private readonly isHealthy: (name: string) => boolean = () => true,
    /** How soon to look again when every routed provider is unhealthy, in milliseconds. */
    private readonly unhealthyRecheckMs = 30_000,
    /** The live KYC provider when one is configured: it decides live tenants' customers of its countries. */
    private readonly liveKyc?: LiveKyc,
  ) {
    this.live = new Map(live.map((provider) => [provider.name, provider]));
  }

  payoutProvidersFor(environment: TenantEnvironment, corridor: PayoutCorridor): PayoutRouted {
    if (environment === 'sandbox') return { kind: 'providers', providers: [this.sandbox.payouts] };
    const { providers: names, strategy } = payoutRouteOf(this.catalog, corridor.country, corridor.paymentMethod, corridor.paymentCode);
    const where = `${corridor.paymentMethod} ${corridor.paymentCode} in ${corridor.country}`;
    if (names.length === 0) return { kind: 'not_served', reason: `no live payout provider is routed for ${where}` };
    const configured = names.map((name) => this.live.get(name)).filter((p): p is PayoutProvider => p !== undefined);
    if (configured.length === 0) return { kind: 'not_served', reason: `no payout provider routed for ${where} is configured` };
    const candidates = configured.map((provider) => ({ name: provider.name, healthy: this.isHealthy(provider.name) }));
    const [first, ...rest] = configured.filter((_, index) => candidates[index]!.healthy);
    if (!first) return { kind: 'unavailable', reason: `every payout provider for ${where} is failing; retry later`, retryAfterMs: this.unhealthyRecheckMs };
    return { kind: 'providers', providers: [first, ...rest], strategy, candidates };
  }

  payoutProviderNamed(environment: TenantEnvironment, name: string): PayoutProvider | undefined {
    if (environment === 'sandbox') return name === this.sandbox.payouts.name ? this.sandbox.payouts : undefined;
    return this.live.get(name);
  }

  kycProviderFor(environment: TenantEnvironment, country: string): Routed<KycProvider> {
    if (environment === 'sandbox') return { kind: 'provider', provider: this.sandbox.kyc };
    if (!this.liveKyc) return NO_LIVE_KYC;
    return this.liveKyc.countries.has(country)
      ? { kind: 'provider', provider: this.liveKyc.provider }
      : { kind: 'unavailable', reason: `the live KYC provider does not check identities of ${country}` };
  }
}
