import type { KycProvider } from '../../core/customers/customer';
import type { PayoutProvider } from '../../core/payments/payout-provider';
import type { PayoutCorridor, ProviderRouting, Routed, TenantEnvironment } from '../../core/routing/provider-routing';

const LIVE: Routed<never> = { kind: 'unavailable', reason: 'live payouts and KYC are not available yet (sandbox only)' };

/**
 * Routing while only simulated rails exist (docs/decisions.md § Sandbox values): the sandbox
 * payout and KYC providers serve sandbox tenants, and nothing serves live tenants, so their
 * money-outs and customers are refused instead of being silently simulated. Real rails replace
 * this adapter with one that routes live tenants by corridor.
 */
export class SandboxOnlyRouting implements ProviderRouting {
  constructor(private readonly payouts: PayoutProvider, private readonly kyc: KycProvider) {}

  payoutProviderFor(environment: TenantEnvironment, _corridor: PayoutCorridor): Routed<PayoutProvider> {
    return environment === 'sandbox' ? { kind: 'provider', provider: this.payouts } : LIVE;
  }

  kycProviderFor(environment: TenantEnvironment, _country: string): Routed<KycProvider> {
    return environment === 'sandbox' ? { kind: 'provider', provider: this.kyc } : LIVE;
  }
}
