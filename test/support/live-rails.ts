import type { KycProvider } from '../../src/core/customers/customer';
import type { PayoutProvider } from '../../src/core/payments/payout-provider';
import type { PayoutCorridor, PayoutRouted, ProviderRouting, Routed, TenantEnvironment } from '../../src/core/routing/provider-routing';

/**
 * Routing for tests at the core's edge: live tenants' payouts go to the provider `live` picks for
 * the corridor, sandbox tenants' to `sandbox`; no KYC provider. A live payment's later status
 * queries go to `named(provider)` when given, else to the provider of that name that took one.
 */
export function testRouting(
  sandbox: PayoutProvider, live: (corridor: PayoutCorridor) => PayoutProvider | undefined, named?: (name: string) => PayoutProvider | undefined,
): ProviderRouting {
  const taken = new Map<string, PayoutProvider>();
  return {
    payoutProvidersFor(environment: TenantEnvironment, corridor: PayoutCorridor): PayoutRouted {
      const provider = environment === 'sandbox' ? sandbox : live(corridor);
      if (provider && environment === 'live') taken.set(provider.name, provider);
      return provider ? { kind: 'providers', providers: [provider] } : { kind: 'unavailable', reason: 'no test provider for this corridor' };
    },
    payoutProviderNamed(environment: TenantEnvironment, name: string): PayoutProvider | undefined {
      if (environment === 'sandbox') return name === sandbox.name ? sandbox : undefined;
      return named ? named(name) : taken.get(name);
    },
    kycProviderFor(): Routed<KycProvider> {
      return { kind: 'unavailable', reason: 'no KYC in this test' };
    },
  };
}

export { liveTenant } from './live-tenant';
