import { randomUUID } from 'node:crypto';
import { loadCatalog } from '../../src/adapters/providers/catalog-file';
import { CatalogRouting } from '../../src/adapters/providers/catalog-routing';
import { SandboxKycProvider } from '../../src/adapters/providers/sandbox-kyc';
import { SandboxPayoutProvider } from '../../src/adapters/providers/sandbox-payout-provider';
import { systemClock } from '../../src/adapters/providers/system';
import { gql } from '../support/graphql-client';
import { liveTenant } from '../support/live-tenant';
import { ScriptedProvider } from '../support/scripted-provider';
import { moneyOutBody, startTestService, type TestService } from '../support/test-service';

const MONEY_OUT = 'mutation($input: MoneyOutInput!, $key: String!) { createMoneyOut(input: $input, idempotencyKey: $key) { payment { id status } } }';
const LEGACY = 'mutation($input: LegacyPayoutInput!) { legacyPayout(input: $input) { transactionId } }';
/** How long routing says to wait while every configured provider refuses calls (the breaker's half-open wait), in ms. */
const HALF_OPEN_MS = 45_500;

const legacyBody = (overrides: Record<string, unknown> = {}) => ({
  amount: 1500, destination: 'MoMo', accountName: 'Jane Wanjiku', accountNumber: '254712345678',
  reference: `legacy-${randomUUID()}`, currency: 'KES', country: 'KE', code: 'MPESA', ...overrides,
});

/**
 * A live corridor no provider is configured for is a permanent refusal, 422 corridor_not_available;
 * one whose configured providers all refuse calls (open circuits) is 503 provider_unavailable with
 * Retry-After, and is served once they recover (docs/decisions.md § Payout providers: routing and
 * failover). REST, the legacy payout and GraphQL each say it in their error shape; nothing is written.
 */
describe('money-outs to corridors with no provider, or only failing ones', () => {
  let service: TestService;
  let admin: string;
  let healthy = false;
  const mpesa = new ScriptedProvider('mpesa');

  beforeAll(async () => {
    const catalog = loadCatalog('data/corridors.json');
    const sandbox = { payouts: new SandboxPayoutProvider(systemClock, { acceptDelayMs: 50, resultDelayMs: 50 }), kyc: new SandboxKycProvider(systemClock, 50) };
    // M-Pesa is configured (it serves KE MOMO MPESA); MTN MoMo, which the table routes UG MOMO MTN to, is not.
    service = await startTestService({}, { routing: new CatalogRouting(catalog, sandbox, [mpesa], () => healthy, HALF_OPEN_MS) });
    admin = await service.newAdminKey();
  });
  afterAll(() => service.close());

  const sql = <T>(text: string, params: unknown[] = []) => service.database.orm.em.fork().getConnection().execute(text, params) as Promise<T[]>;
  const writes = async (tenantId: string) => (await sql<{ n: number }>(
    `select ((select count(*) from payments where tenant_id = ?) + (select count(*) from idempotency_keys where tenant_id = ?)
          + (select count(*) from ledger_transactions where tenant_id = ? and kind = 'hold'))::int as n`, [tenantId, tenantId, tenantId]))[0]!.n;
  const pay = (apiKey: string, body: Record<string, unknown>, key = randomUUID()) =>
    service.call('POST', '/v1/payments/moneyout', { apiKey, body, headers: { 'idempotency-key': key } });

  it('a corridor with no configured provider is 422 corridor_not_available everywhere, without Retry-After', async () => {
    const { tenantId, apiKey } = await liveTenant(service, admin);
    const uganda = { country: 'UG', destinationCurrency: 'UGX', paymentCode: 'MTN', accountNumber: '256772123456', fiatAmount: 50_000 };

    const rest = await pay(apiKey, moneyOutBody(uganda));
    expect([rest.status, rest.body.code, rest.headers.get('retry-after')]).toEqual([422, 'corridor_not_available', null]);
    expect(rest.body.message).toMatch(/MOMO MTN in UG/);
    const legacy = await service.call('POST', '/momo/payout', {
      apiKey, body: legacyBody({ currency: 'UGX', country: 'UG', code: 'MTN', accountNumber: '256772123456', amount: 50_000 }),
    });
    expect([legacy.status, legacy.body.error, legacy.body.code, legacy.headers.get('retry-after')]).toEqual([422, { code: 'corridor_not_available' }, 'corridor_not_available', null]);
    const graphql = await gql(service.baseUrl, MONEY_OUT, { input: moneyOutBody(uganda), key: randomUUID() }, apiKey);
    expect([graphql.body.data, graphql.body.errors?.[0]?.extensions]).toEqual([null, { code: 'corridor_not_available' }]);
    expect(await writes(tenantId)).toBe(0);
  });

  it('a corridor whose configured providers all refuse calls is 503 provider_unavailable with Retry-After, then served when they recover', async () => {
    const { tenantId, apiKey } = await liveTenant(service, admin);
    healthy = false;
    const key = randomUUID();
    const body = moneyOutBody();
    const rest = await pay(apiKey, body, key);
    expect([rest.status, rest.body.code, rest.headers.get('retry-after')]).toEqual([503, 'provider_unavailable', '46']);
    const legacy = await service.call('POST', '/momo/payout', { apiKey, body: legacyBody() });
    expect([legacy.status, legacy.body.code, legacy.body.details.retryAfterS, legacy.headers.get('retry-after')]).toEqual([503, 'provider_unavailable', 46, '46']);
    const graphql = await gql(service.baseUrl, MONEY_OUT, { input: moneyOutBody(), key: randomUUID() }, apiKey);
    expect([graphql.body.data, graphql.body.errors?.[0]?.extensions]).toEqual([null, { code: 'provider_unavailable', details: { retryAfterS: 46 } }]);
    const graphqlLegacy = await gql(service.baseUrl, LEGACY, { input: { ...legacyBody(), destination: 'MOMO', amount: '1500' } }, apiKey);
    expect(graphqlLegacy.body.errors?.[0]?.extensions).toEqual({ code: 'provider_unavailable', details: { retryAfterS: 46 } });
    expect(await writes(tenantId)).toBe(0);

    // The circuit closes: the same request, under the same key, is taken.
    healthy = true;
    const again = await pay(apiKey, body, key);
    expect([again.status, again.body.status]).toEqual([201, 'initiated']);
  });
});
