import path from 'node:path';
import { loadCatalog } from '../../src/adapters/providers/catalog-file';
import { CatalogRateSource } from '../../src/adapters/providers/catalog-rate-source';
import { CatalogRouting } from '../../src/adapters/providers/catalog-routing';
import type { KycProvider } from '../../src/core/customers/customer';
import type { PayoutProvider } from '../../src/core/payments/payout-provider';
import type { PayoutCorridor } from '../../src/core/routing/provider-routing';

// The catalog's reference rates (docs/decisions.md § FX quotes and the quote lock) and the routing
// of sandbox and live tenants (docs/decisions.md § Payout providers: routing and failover).
const catalog = loadCatalog(path.resolve(__dirname, '../../data/corridors.json'));

describe('catalog rate source', () => {
  it('serves the catalog rate of a pair it lists, the catalog named as its one source and no spread', async () => {
    const rate = catalog.rates.KES!.USDC!;
    expect(await new CatalogRateSource(catalog).rate('KES', 'USDC')).toEqual({ ok: true, value: {
      rate, basis: { origin: 'catalog', mid: rate, spreadPercent: '0', sources: [{ source: 'catalog', rate, at: null }], pinId: null },
    } });
  });

  it('a currency without rates, or a pair not listed, is unsupported_pair naming the pair', async () => {
    const noKes = new CatalogRateSource({ ...catalog, rates: { NGN: catalog.rates.NGN } } as typeof catalog);
    expect(await noKes.rate('KES', 'USDC')).toEqual({ ok: false, code: 'unsupported_pair', message: 'No rate for KES/USDC' });
    const usdcOnly = new CatalogRateSource({ ...catalog, rates: { ...catalog.rates, NGN: { USDC: '1500' } } } as typeof catalog);
    expect(await usdcOnly.rate('NGN', 'USDT')).toEqual({ ok: false, code: 'unsupported_pair', message: 'No rate for NGN/USDT' });
  });
});

describe('catalog routing: the sandbox side', () => {
  const provider = (name: string): PayoutProvider => ({ name, submit: async () => ({ kind: 'retry', afterMs: 1 }), status: async () => ({ kind: 'not_found' }) });
  const kyc = { check: async () => ({ kind: 'approved' }) } as unknown as KycProvider;
  const sandboxPayouts = provider('sandbox');
  // Made in each test, where a mutation run has its mutant active.
  let routing: CatalogRouting;
  beforeEach(() => {
    routing = new CatalogRouting(catalog, { payouts: sandboxPayouts, kyc }, [provider('mpesa'), provider('sandbox_like')]);
  });

  it('a sandbox tenant finds the sandbox provider by its name, and no live one', () => {
    expect(routing.payoutProviderNamed('sandbox', 'sandbox')).toBe(sandboxPayouts);
    expect(routing.payoutProviderNamed('sandbox', 'mpesa')).toBeUndefined();
    expect(routing.payoutProviderNamed('live', 'mpesa')?.name).toBe('mpesa');
  });

  it('KYC: the sandbox provider for sandbox tenants, unavailable for live ones (none serves them yet)', () => {
    expect(routing.kycProviderFor('sandbox', 'KE')).toEqual({ kind: 'provider', provider: kyc });
    expect(routing.kycProviderFor('live', 'KE')).toEqual({ kind: 'unavailable', reason: 'no KYC provider serves live tenants yet' });
  });

  it('every routed provider refusing calls is unavailable, with the recheck delay', () => {
    const table = { ...catalog, payoutRoutes: [{ country: 'KE', method: 'MOMO', providers: ['mpesa'] }] } as typeof catalog;
    const down = new CatalogRouting(table, { payouts: sandboxPayouts, kyc }, [provider('mpesa')], () => false, 12_000);
    expect(down.payoutProvidersFor('live', { country: 'KE', paymentMethod: 'MOMO', paymentCode: 'MPESA' } as PayoutCorridor)).toEqual({
      kind: 'unavailable', reason: 'every payout provider for MOMO MPESA in KE is failing; retry later', retryAfterMs: 12_000,
    });
  });
});
