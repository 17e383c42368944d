import { Tenant, newTenant } from '../../src/core/auth/tenant';
import { corridorOf, soleCountryOf } from '../../src/core/catalog/catalog';
import { createLegacyPayout, type LegacyPayoutCommand, type LegacyPayoutDeps } from '../../src/core/payments/legacy-payout';
import { getFxQuote, type FxQuoteDeps, type FxQuoteQuery } from '../../src/core/quotes/get-fx-quote';
import { Quote, type QuoteRepository } from '../../src/core/quotes/quote';
import { CatalogRateSource } from '../../src/adapters/providers/catalog-rate-source';
import { err, ok } from '../../src/core/shared/result';
import { FixedClock, SequentialIds } from '../support/fakes';
import { catalog, fakeWorld, TENANT, type FakeWorld } from '../support/fake-world';

/** FX quotes (OpenAPI convertFx; docs/decisions.md § FX quotes and the quote lock) on in-memory ports. */
describe('getFxQuote', () => {
  let inserted: Quote[];
  let deps: FxQuoteDeps;
  const clock = new FixedClock();
  beforeEach(() => {
    inserted = [];
    const quotes: QuoteRepository = { insert: async (q) => void inserted.push(q), findForTenant: async () => undefined, consume: async () => false };
    deps = { catalog, rates: new CatalogRateSource(catalog), quotes, clock, ids: new SequentialIds(), quoteTtlSeconds: 60 };
  });
  const query = (o: Partial<FxQuoteQuery> = {}): FxQuoteQuery => ({ amount: 1500, sourceCurrency: 'KES', destinationCurrency: 'USDC', ...o });

  it('prices with the defaults (MOMO, no issuer fee, the catalog\'s chain) and stores the quote for its lifetime, with its pricing record', async () => {
    const r = await getFxQuote(deps, TENANT, query());
    const expected = new Quote({
      id: 'quo_00000000000000000000000001', tenantId: TENANT, fiatCurrency: 'KES', stablecoin: 'USDC', fiatAmount: '1500', exchangeRate: '129.25',
      payoutFee: '0.510000', convertedAmount: '12.115416', paymentMethod: 'MOMO', country: null, blockchain: 'SOLANA', optionalIssuerFee: 'NO',
      expiresAt: new Date(clock.now().getTime() + 60_000), createdAt: clock.now(), usedAt: null, paymentId: null,
      pricing: {
        origin: 'catalog', mid: '129.25', spreadPercent: '0', sources: [{ source: 'catalog', rate: '129.25', at: null }], pinId: null,
        rate: '129.25', fee: '0.510000',
      },
    });
    expect(r).toEqual(ok(expected));
    expect(inserted).toEqual([expected]);
  });

  it('uses the method, chain, issuer fee and country it is given', async () => {
    const r = await getFxQuote(deps, TENANT, query({ paymentMethod: 'BANK', blockchain: 'BSC', optionalIssuerFee: 'YES', country: 'KE', destinationCurrency: 'USDT', amount: '1500.50' }));
    expect(r.ok && [r.value.payoutFee, r.value.convertedAmount, r.value.exchangeRate, r.value.country, r.value.fiatAmount])
      .toEqual(['1.350000', '12.963778', '129.2', 'KE', '1500.5']);
  });

  it.each([
    ['0.001', 'amount allows at most 2 decimal places'],
    ['0.009', 'amount allows at most 2 decimal places'],
    [0, 'amount must be greater than 0'],
    ['x', 'amount must be a positive decimal number'],
  ])('refuses amount %p, storing nothing', async (amount, message) => {
    expect(await getFxQuote(deps, TENANT, query({ amount }))).toEqual(err('validation_error', message, { field: 'amount' }));
    expect(inserted).toEqual([]);
  });

  it('accepts 0.01 and a whole-unit currency\'s 2 places', async () => {
    expect((await getFxQuote(deps, TENANT, query({ amount: '0.01' }))).ok).toBe(true);
    expect((await getFxQuote(deps, TENANT, query({ sourceCurrency: 'UGX', amount: '1000.25' }))).ok).toBe(true);
  });

  it('quotes only a currency some routed payout provider pays out in (XOF and XAF yes; TZS without its TZ route, not), storing nothing for a refusal', async () => {
    expect((await getFxQuote(deps, TENANT, query({ sourceCurrency: 'XOF', amount: '6020' }))).ok).toBe(true);
    expect((await getFxQuote(deps, TENANT, query({ sourceCurrency: 'XAF', amount: '6020' }))).ok).toBe(true);
    inserted = [];
    const unroutedTz = { ...deps, catalog: { ...catalog, payoutRoutes: catalog.payoutRoutes.filter((r) => r.country !== 'TZ') } };
    expect(await getFxQuote(unroutedTz, TENANT, query({ sourceCurrency: 'TZS', amount: '25900' }))).toEqual(err('unsupported_pair', 'No payout provider pays out in TZS'));
    expect((await getFxQuote(deps, TENANT, query({ sourceCurrency: 'TZS', amount: '25900' }))).ok).toBe(true);
    expect(inserted).toHaveLength(1);
  });

  it('refuses a country that does not pay out in the currency, and a pair without a rate', async () => {
    expect(await getFxQuote(deps, TENANT, query({ country: 'UG' }))).toEqual(err('unsupported_pair', 'UG does not pay out in KES'));
    const none = { ...deps, rates: { rate: async () => err('rate_unavailable' as const, 'down') } };
    expect(await getFxQuote(none, TENANT, query())).toEqual(err('rate_unavailable', 'down'));
    expect(inserted).toEqual([]);
  });
});

describe('catalog lookups', () => {
  it('finds a served country\'s corridor, and the sole country of a currency', () => {
    expect(corridorOf(catalog, 'KE')?.currency).toBe('KES');
    expect(corridorOf(catalog, 'ET' as never)?.currency).toBe('ETB');
    expect(soleCountryOf(catalog, 'KES')).toBe('KE');
    // XOF is paid out in four countries: no single default.
    expect(soleCountryOf(catalog, 'XOF')).toBeUndefined();
    expect(soleCountryOf(catalog, 'ETB')).toBe('ET');
  });
});

/** The legacy payout (OpenAPI legacyPayout) through the money-out use case, on fakes. */
describe('createLegacyPayout', () => {
  let world: FakeWorld;
  let tenant: Tenant | undefined;
  let deps: LegacyPayoutDeps;
  beforeEach(() => {
    world = fakeWorld();
    world.store.fund(TENANT, 'USDC', '100');
    world.store.fund(TENANT, 'USDT', '100');
    tenant = newTenant({ id: TENANT, name: 'T', environment: 'sandbox', createdAt: new Date(0) });
    deps = { ...world.moneyOut, findTenant: async (id) => (id === TENANT ? tenant : undefined), uuidFor: () => '0f8fad5b-d9cb-469f-a165-70867728950e' };
  });
  const legacy = (o: Partial<LegacyPayoutCommand> = {}): LegacyPayoutCommand => ({
    amount: 1500, destination: 'MoMo', accountName: 'Jane', accountNumber: '254712345678', reference: 'lp-1', currency: 'KES', country: 'KE', code: 'MPESA', ...o,
  });

  it('creates the payment with the tenant\'s payout settings, the reference as idempotency key', async () => {
    const keys: string[] = [];
    const r = await createLegacyPayout({ ...deps, uuidFor: (t) => (keys.push(t), '0f8fad5b-d9cb-469f-a165-70867728950e') }, TENANT, legacy());
    expect(r).toEqual(ok({ transactionId: 'pay_00000000000000000000000001', replayed: false }));
    expect(keys).toEqual(['legacy-payout:lp-1']);
    expect(world.store.payments.get('pay_00000000000000000000000001')).toMatchObject({
      sourceCurrency: 'USDC', blockchain: 'SOLANA', paymentMethod: 'MOMO', paymentCode: 'MPESA', reference: 'lp-1',
      refundAddress: tenant!.payoutRefundAddress, optionalIssuerFee: 'NO', businessNumber: null,
    });
    expect(await createLegacyPayout(deps, TENANT, legacy())).toEqual(ok({ transactionId: 'pay_00000000000000000000000001', replayed: true }));
  });

  it('funds from the tenant\'s own stablecoin and chain, and passes a business number on', async () => {
    tenant = new Tenant({ ...tenant!, payoutSourceCurrency: 'USDT', payoutBlockchain: 'BSC', payoutRefundAddress: `0x${'1a'.repeat(20)}` });
    const r = await createLegacyPayout(deps, TENANT, legacy({ destination: 'Paybill', accountNumber: '888880', businessNumber: '123456' }));
    expect(r.ok).toBe(true);
    expect(world.store.payments.get('pay_00000000000000000000000001')).toMatchObject({ sourceCurrency: 'USDT', blockchain: 'BSC', paymentMethod: 'PAYBILL', businessNumber: '123456' });
  });

  it.each([
    ['Bank', '123456789', 'accountNumber must be 10 to 16 digits for Bank'],
    ['Bank', '12345678901234567', 'accountNumber must be 10 to 16 digits for Bank'],
    ['MoMo', '+254712345678', 'accountNumber must be the phone code and number, digits only, no plus sign, for MoMo'],
    ['MoMo', '0712345678', 'accountNumber must be the phone code and number, digits only, no plus sign, for MoMo'],
    ['MoMo', '1234567', 'accountNumber must be the phone code and number, digits only, no plus sign, for MoMo'],
    ['Paybill', '', 'accountNumber must be 1 to 20 characters for Paybill'],
    ['Paybill', 'x'.repeat(21), 'accountNumber must be 1 to 20 characters for Paybill'],
    ['Till', '12345', 'accountNumber must be 6 digits for Till'],
    ['Till', '1234567', 'accountNumber must be 6 digits for Till'],
  ] as const)('refuses a %s account number %p', async (destination, accountNumber, message) => {
    expect(await createLegacyPayout(deps, TENANT, legacy({ destination, accountNumber }))).toEqual(err('validation_error', message, { field: 'accountNumber' }));
    expect(world.store.payments.size).toBe(0);
  });

  it.each([['Bank', '1234567890'], ['Bank', '1234567890123456'], ['Till', '123456'], ['Paybill', 'x'.repeat(20)], ['MoMo', '12345678']] as const)(
    'accepts a %s account number %p past its own rule', async (destination, accountNumber) => {
      const r = await createLegacyPayout(deps, TENANT, legacy({ destination, accountNumber }));
      expect(r.ok ? 'created' : r.details?.field).not.toBe('accountNumber');
    });

  it('refuses a blank reference, and a tenant without a refund address or unknown', async () => {
    expect(await createLegacyPayout(deps, TENANT, legacy({ reference: ' ' }))).toEqual(err('validation_error', 'reference must not be blank', { field: 'reference' }));
    tenant = new Tenant({ ...tenant!, payoutRefundAddress: null });
    const unconfigured = err('tenant_not_configured', 'Payout settings (refund address) are not configured for this tenant');
    expect(await createLegacyPayout(deps, TENANT, legacy())).toEqual(unconfigured);
    expect(await createLegacyPayout(deps, 'ten_X', legacy())).toEqual(unconfigured);
    expect(world.store.payments.size).toBe(0);
  });

  it('returns the money-out\'s refusals as they are', async () => {
    const r = await createLegacyPayout(deps, TENANT, legacy({ amount: '1500.555' }));
    expect(r.ok ? 'ok' : [r.code, r.details]).toEqual(['validation_error', { field: 'fiatAmount' }]);
  });
});
