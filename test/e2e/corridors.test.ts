import { randomUUID } from 'node:crypto';
import { loadCatalog } from '../../src/adapters/providers/catalog-file';
import { CatalogRouting } from '../../src/adapters/providers/catalog-routing';
import { SandboxKycProvider } from '../../src/adapters/providers/sandbox-kyc';
import { SandboxPayoutProvider } from '../../src/adapters/providers/sandbox-payout-provider';
import { systemClock } from '../../src/adapters/providers/system';
import { MONEY_OUT_COUNTRIES } from '../../src/core/catalog/catalog';
import { gql } from '../support/graphql-client';
import { liveTenant } from '../support/live-tenant';
import { ScriptedProvider } from '../support/scripted-provider';
import { moneyOutBody, startTestService, type TestService } from '../support/test-service';

const CORRIDORS = `query($country: Country, $paymentMethod: PaymentMethod) {
  corridors(country: $country, paymentMethod: $paymentMethod) {
    country countryName currency paymentMethod paymentCode bankName minAmount maxAmount sourceCurrencies payable unavailableCode
  }
}`;

type Corridor = Record<string, unknown> & { country: string; paymentMethod: string; paymentCode: string; payable: boolean; unavailableCode: string | null };

/**
 * GET /v1/corridors and GraphQL `corridors` (OpenAPI listCorridors; docs/api.md § Corridors): every
 * catalog corridor with its limits, and whether the caller's environment can pay it now, as a
 * money-out to it would be answered. Only M-Pesa is configured here (a scripted provider).
 */
describe('corridors', () => {
  let service: TestService;
  let admin: string;
  let healthy = true;
  const catalog = loadCatalog('data/corridors.json');
  const all = MONEY_OUT_COUNTRIES.flatMap((country) => Object.values(catalog.countries[country]?.methods ?? {}).flatMap((offer) => offer.codes));

  beforeAll(async () => {
    const sandbox = { payouts: new SandboxPayoutProvider(systemClock, { acceptDelayMs: 50, resultDelayMs: 50 }), kyc: new SandboxKycProvider(systemClock, 50) };
    service = await startTestService({}, { routing: new CatalogRouting(catalog, sandbox, [new ScriptedProvider('mpesa')], () => healthy, 30_000) });
    admin = await service.newAdminKey();
  });
  afterAll(() => service.close());
  afterEach(() => { healthy = true; });

  const list = async (apiKey: string, query = ''): Promise<Corridor[]> => {
    const res = await service.call('GET', `/v1/corridors${query}`, { apiKey });
    expect(res.status).toBe(200);
    return res.body as Corridor[];
  };
  const find = (corridors: Corridor[], country: string, method: string, code: string) =>
    corridors.find((c) => c.country === country && c.paymentMethod === method && c.paymentCode === code);

  it('a sandbox tenant can pay every catalog corridor, each with its limits and currencies', async () => {
    const { apiKey } = await service.newTenant();
    const corridors = await list(apiKey);
    expect(corridors).toHaveLength(all.length);
    expect(corridors.every((c) => c.payable && c.unavailableCode === null)).toBe(true);
    expect(corridors.some((c) => c.country === ('ET' as string))).toBe(false);
    expect(find(corridors, 'KE', 'MOMO', 'MPESA')).toEqual({
      country: 'KE', countryName: 'Kenya', currency: 'KES', paymentMethod: 'MOMO', paymentCode: 'MPESA', bankName: null,
      minAmount: '10.00', maxAmount: '250000.00', sourceCurrencies: ['USDC', 'USDT'], payable: true, unavailableCode: null,
    });
    expect(find(corridors, 'UG', 'MOMO', 'AIRTEL')).toMatchObject({ currency: 'UGX', minAmount: '500', maxAmount: '5000000', payable: true });
    expect(find(corridors, 'NG', 'BANK', '058')).toMatchObject({ bankName: 'Guaranty Trust Bank', currency: 'NGN', payable: true });
  });

  it('a live tenant can pay the corridors a configured provider serves; the others say why, as a money-out to them is answered', async () => {
    const { apiKey } = await liveTenant(service, admin);
    const corridors = await list(apiKey);
    expect(corridors).toHaveLength(all.length);
    const payable = corridors.filter((c) => c.payable).map((c) => `${c.country} ${c.paymentMethod} ${c.paymentCode}`);
    // Whatever else the routing table names, only mpesa is configured here: its three Kenyan corridors.
    expect(payable.sort()).toEqual(['KE MOMO MPESA', 'KE PAYBILL MPESA', 'KE TILL MPESA']);
    expect(find(corridors, 'UG', 'MOMO', 'MTN')).toMatchObject({ payable: false, unavailableCode: 'corridor_not_available' });
    expect(find(corridors, 'KE', 'MOMO', 'AIRTEL')).toMatchObject({ payable: false, unavailableCode: 'corridor_not_available' });
    const refused = await service.call('POST', '/v1/payments/moneyout', {
      apiKey, headers: { 'idempotency-key': randomUUID() },
      body: moneyOutBody({ country: 'UG', destinationCurrency: 'UGX', paymentCode: 'MTN', accountNumber: '256772123456', fiatAmount: 50_000 }),
    });
    expect([refused.status, refused.body.code]).toEqual([422, 'corridor_not_available']);
  });

  it('a live corridor whose providers all have their circuit open is provider_unavailable, and payable again once they recover', async () => {
    const { apiKey } = await liveTenant(service, admin);
    healthy = false;
    expect(find(await list(apiKey, '?country=KE&paymentMethod=MOMO'), 'KE', 'MOMO', 'MPESA')).toMatchObject({ payable: false, unavailableCode: 'provider_unavailable' });
    const graphql = await gql(service.baseUrl, CORRIDORS, { country: 'KE', paymentMethod: 'PAYBILL' }, apiKey);
    expect(graphql.body.data.corridors).toEqual([expect.objectContaining({ paymentCode: 'MPESA', payable: false, unavailableCode: 'PROVIDER_UNAVAILABLE' })]);
    healthy = true;
    expect(find(await list(apiKey, '?country=KE'), 'KE', 'MOMO', 'MPESA')).toMatchObject({ payable: true, unavailableCode: null });
  });

  it('filters by country and method', async () => {
    const { apiKey } = await service.newTenant();
    const banks = await list(apiKey, '?country=KE&paymentMethod=BANK');
    expect(banks.map((c) => [c.paymentCode, c.bankName])).toEqual(catalog.countries.KE!.banks.map((b) => [b.bankCode, b.bankName]));
    expect((await list(apiKey, '?paymentMethod=PAYBILL')).map((c) => c.country)).toEqual(['KE']);
  });

  it('GraphQL corridors answers what REST does, with upper-case enum values', async () => {
    const { apiKey } = await liveTenant(service, admin);
    const rest = await list(apiKey);
    const graphql = await gql(service.baseUrl, CORRIDORS, {}, apiKey);
    expect(graphql.body.errors).toBeUndefined();
    expect(graphql.body.data.corridors).toEqual(rest.map((c) => ({
      ...c, unavailableCode: c.unavailableCode === null ? null : c.unavailableCode.toUpperCase(),
    })));
  });

  it('bad input is a 400 validation_error (GraphQL: validation_error), unauthenticated a 401', async () => {
    const { apiKey } = await service.newTenant();
    for (const query of ['?country=ET', '?country=XX', '?paymentMethod=CARD', '?other=1', '?country=ke']) {
      const res = await service.call('GET', `/v1/corridors${query}`, { apiKey });
      expect([query, res.status, res.body.code]).toEqual([query, 400, 'validation_error']);
    }
    // ET is a Country the GraphQL enum knows (the legacy payout's), but no money-out pays it.
    const et = await gql(service.baseUrl, CORRIDORS, { country: 'ET' }, apiKey);
    expect([et.body.data, et.body.errors?.[0]?.extensions?.code]).toEqual([null, 'validation_error']);
    const bad = await gql(service.baseUrl, CORRIDORS, { paymentMethod: 'CARD' }, apiKey);
    expect(bad.body.errors?.[0]?.extensions?.code).toBe('validation_error');
    expect((await service.call('GET', '/v1/corridors')).status).toBe(401);
  });
});
