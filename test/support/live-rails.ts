import { randomUUID } from 'node:crypto';
import type { KycProvider } from '../../src/core/customers/customer';
import type { PayoutProvider } from '../../src/core/payments/payout-provider';
import type { PayoutCorridor, PayoutRouted, ProviderRouting, Routed, TenantEnvironment } from '../../src/core/routing/provider-routing';
import type { TestService } from './test-service';
import { solanaTxHash } from './tx-hashes';

export const REFUND_ADDRESS = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';

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

/** A live tenant made as an operator would: admin API, issuer key, a deposit of 10,000 USDC, a refund address. */
export async function liveTenant(service: TestService, admin: string): Promise<{ tenantId: string; apiKey: string }> {
  const call = async (method: string, path: string, body: unknown) => {
    const res = await service.call(method, path, { apiKey: admin, body });
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
    return res.body;
  };
  const { tenantId } = await call('POST', '/v1/admin/tenants', { name: `Live ${randomUUID()}`, environment: 'live' });
  const { apiKey } = await call('POST', `/v1/admin/tenants/${tenantId}/api-keys`, { scope: 'issuer' });
  await call('POST', `/v1/admin/tenants/${tenantId}/deposits`, { currency: 'USDC', amount: 10000, blockchain: 'SOLANA', txHash: solanaTxHash() });
  await call('PATCH', `/v1/admin/tenants/${tenantId}`, { payoutRefundAddress: REFUND_ADDRESS });
  return { tenantId, apiKey };
}
