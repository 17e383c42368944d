import { randomUUID } from 'node:crypto';
import { PaystackClient } from '../../src/adapters/providers/paystack/paystack-client';
import { PaystackPayoutProvider } from '../../src/adapters/providers/paystack/paystack-payout-provider';
import { referenceOf } from '../../src/adapters/providers/paystack/paystack-transfers';
import { SandboxPayoutProvider } from '../../src/adapters/providers/sandbox-payout-provider';
import { systemClock } from '../../src/adapters/providers/system';
import { startPaystackSimulator, type PaystackSimulator } from '../../simulators/paystack/paystack-simulator';
import { bankPayment, configFor } from '../providers/paystack-harness';
import { liveTenant, testRouting } from '../support/live-rails';
import { ScriptedProvider } from '../support/scripted-provider';
import { eventually, moneyOutBody, startTestService, type TestService } from '../support/test-service';

const NG_BANK = { fiatAmount: 15000, destinationCurrency: 'NGN', country: 'NG', paymentMethod: 'BANK', paymentCode: '058' };
const GH_BANK = { fiatAmount: 100, destinationCurrency: 'GHS', country: 'GH', paymentMethod: 'BANK', paymentCode: 'GCB', accountNumber: '0123456780' };

/**
 * GET /v1/admin/reconciliation (docs/decisions.md § Reconciliation): our payments against the
 * provider's records, Paystack through its list API over real HTTP (its simulator), the sandbox
 * per payment. Reports only: nothing is corrected.
 */
describe('reconciliation report', () => {
  let sim: PaystackSimulator;
  let client: PaystackClient;
  let service: TestService;
  let admin: string;
  // Accepts GH bank payouts under Paystack's name without telling Paystack: payments it never holds.
  // It also answers our own status queries (always pending), so what Paystack did never reaches us
  // by itself and only the report can tell.
  const ghost = new ScriptedProvider('paystack');
  beforeAll(async () => {
    sim = await startPaystackSimulator({ resultDelayMs: 100 });
    client = new PaystackClient(configFor(sim.url, sim.secretKey));
    const paystack = new PaystackPayoutProvider(client);
    const sandbox = new SandboxPayoutProvider(systemClock, { acceptDelayMs: 50, resultDelayMs: 50 });
    service = await startTestService({}, {
      routing: testRouting(sandbox, (corridor) => (corridor.country === 'NG' ? paystack : corridor.country === 'GH' ? ghost : undefined), () => ghost),
      reconciliationProviders: [paystack],
    });
    admin = await service.newAdminKey();
  });
  afterAll(async () => {
    await service.close();
    await client.close();
    await sim.close();
  });

  const sql = (text: string, params: unknown[]) => service.database.orm.em.fork().getConnection().execute(text, params);
  async function accepted(apiKey: string, body: Record<string, unknown>): Promise<string> {
    const created = await service.call('POST', '/v1/payments/moneyout', { apiKey, body: moneyOutBody(body), headers: { 'idempotency-key': randomUUID() } });
    expect(created.status).toBe(201);
    const id: string = created.body.id;
    await eventually(async () => ((await service.call('GET', `/v1/payments/${id}`, { apiKey })).body.status === 'provider_accepted' ? true : undefined));
    return id;
  }
  const report = (query: string) => service.call('GET', `/v1/admin/reconciliation?${query}`, { apiKey: admin });
  const ids = (entries: { paymentId: string }[]) => entries.map((e) => e.paymentId).sort();

  it('lists missing, status and amount mismatches and transfers only Paystack has, and counts them in metrics', async () => {
    const from = new Date(Date.now() - 1000).toISOString();
    const { apiKey, tenantId } = await liveTenant(service, admin);
    const consistent = await accepted(apiKey, { ...NG_BANK, accountNumber: '0123456799' }); // pending at Paystack, provider_accepted here
    const succeededThere = await accepted(apiKey, { ...NG_BANK, accountNumber: '0123456780' });
    const otherAmount = await accepted(apiKey, { ...NG_BANK, accountNumber: '0123456899' });
    const otherCurrency = await accepted(apiKey, { ...NG_BANK, accountNumber: '0123456999' });
    const missing = await accepted(apiKey, GH_BANK);
    await sql('update payments set fiat_amount = 15000.01 where id = ?', [otherAmount]);
    // Paystack paid the same figure in NGN; ours says GHS.
    await sql("update payments set destination_currency = 'GHS' where id = ?", [otherCurrency]);
    const stranger = bankPayment();
    expect(await new PaystackPayoutProvider(client).submit(stranger)).toMatchObject({ kind: 'accepted' });
    await sim.waitFor(referenceOf(succeededThere), 'success');

    const res = await report(`provider=paystack&from=${from}&to=${new Date(Date.now() + 1000).toISOString()}`);
    expect(res.status).toBe(200);
    const mine = new Set([consistent, succeededThere, otherAmount, otherCurrency, missing, stranger.id]);
    const only = <T extends { paymentId: string }>(entries: T[]) => entries.filter((e) => mine.has(e.paymentId));
    expect(res.body.compared).toBeGreaterThanOrEqual(5);
    expect(only(res.body.missingAtProvider)).toEqual([{
      paymentId: missing, tenantId, status: 'provider_accepted', fiatAmount: '100.00', currency: 'GHS', createdAt: expect.any(String),
    }]);
    expect(only(res.body.statusMismatches)).toEqual([{
      paymentId: succeededThere, tenantId, ourStatus: 'provider_accepted', providerOutcome: 'succeeded', providerStatus: 'success',
    }]);
    expect(only(res.body.amountMismatches).sort((a, b) => (a.paymentId === otherAmount ? -1 : b.paymentId === otherAmount ? 1 : 0))).toEqual([
      { paymentId: otherAmount, tenantId, ourAmount: '15000.01', ourCurrency: 'NGN', providerAmount: '15000.00', providerCurrency: 'NGN' },
      { paymentId: otherCurrency, tenantId, ourAmount: '15000.00', ourCurrency: 'GHS', providerAmount: '15000.00', providerCurrency: 'NGN' },
    ]);
    expect(only(res.body.atProviderOnly)).toEqual([{ paymentId: stranger.id, ourStatus: null, providerOutcome: expect.any(String), providerStatus: expect.any(String) }]);
    for (const list of ['missingAtProvider', 'statusMismatches', 'amountMismatches', 'atProviderOnly']) expect(ids(res.body[list])).not.toContain(consistent);

    // Reported, never corrected: our records are as they were.
    for (const id of [succeededThere, missing]) expect((await service.call('GET', `/v1/payments/${id}`, { apiKey })).body.status).toBe('provider_accepted');
    const metrics = (await service.call('GET', '/metrics', { apiKey: admin })).text;
    for (const kind of ['missing_at_provider', 'status_mismatch', 'amount_mismatch']) {
      expect(metrics).toMatch(new RegExp(`reconciliation_mismatches_total\\{provider="paystack",kind="${kind}"\\} [1-9]`));
    }
    // A window that ends before these payments were made holds none of them.
    const before = await report(`provider=paystack&from=${new Date(Date.parse(from) - 60_000).toISOString()}&to=${from}`);
    expect(before.status).toBe(200);
    expect(only(before.body.missingAtProvider)).toEqual([]);
    expect(only(before.body.statusMismatches)).toEqual([]);
  });

  it('reads the sandbox per payment: a finished payment matches', async () => {
    const from = new Date(Date.now() - 1000).toISOString();
    const { apiKey } = await service.newTenant();
    const created = await service.call('POST', '/v1/payments/moneyout', { apiKey, body: moneyOutBody(), headers: { 'idempotency-key': randomUUID() } });
    const id: string = created.body.id;
    await eventually(async () => ((await service.call('GET', `/v1/payments/${id}`, { apiKey })).body.status === 'succeeded' ? true : undefined));
    const res = await report(`provider=sandbox&from=${from}&to=${new Date(Date.now() + 1000).toISOString()}`);
    expect(res.status).toBe(200);
    expect(res.body.compared).toBeGreaterThanOrEqual(1);
    for (const list of ['missingAtProvider', 'statusMismatches', 'amountMismatches', 'atProviderOnly']) expect(ids(res.body[list])).not.toContain(id);
  });

  it('refuses bad queries with 400 in shape A, an unconfigured provider with 503, and issuer keys with 403', async () => {
    const now = Date.now();
    const iso = (ms: number) => new Date(ms).toISOString();
    const cases = [
      '', `provider=paystack&from=${iso(now)}`, `provider=stripe&from=${iso(now - 1000)}&to=${iso(now)}`,
      `provider=paystack&from=yesterday&to=${iso(now)}`, `provider=paystack&from=${iso(now)}&to=${iso(now)}`,
      `provider=paystack&from=${iso(now - 32 * 86_400_000)}&to=${iso(now)}`, `provider=paystack&from=${iso(now - 1000)}&to=${iso(now)}&extra=1`,
    ];
    for (const query of cases) {
      const res = await report(query);
      expect({ query, status: res.status, body: res.body }).toEqual({ query, status: 400, body: expect.objectContaining({ statusCode: 400, code: 'validation_error', message: expect.any(String) }) });
    }
    const mpesa = await report(`provider=mpesa&from=${iso(now - 1000)}&to=${iso(now)}`);
    expect([mpesa.status, mpesa.body.code]).toEqual([503, 'provider_unavailable']);
    const { apiKey } = await service.newTenant();
    expect((await service.call('GET', `/v1/admin/reconciliation?provider=sandbox&from=${iso(now - 1000)}&to=${iso(now)}`, { apiKey })).status).toBe(403);
  });
});
