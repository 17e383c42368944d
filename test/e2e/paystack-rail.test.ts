import { startPaystackSimulator, type PaystackSimulator } from '../../simulators/paystack/paystack-simulator';
import { holderName } from '../../simulators/paystack/paystack-simulator-ledger';
import { liveTenant, moneyOut, ngBankBody } from '../support/live-tenant';
import { backupProvider, callbackCount, catalogWithRoutes, eventTypes, ledgerKinds, settled, storedCallbacks } from '../support/provider-e2e';
import { eventually, startTestService, type TestService } from '../support/test-service';

const SUCCEEDED = ['payment.initiated', 'payment.processing', 'payment.succeeded'];

/**
 * A live tenant's bank payouts in Nigeria through the service to the Paystack simulator over real
 * HTTP (docs/providers.md § Paystack Transfers): signed webhooks to /callbacks/paystack, verify as
 * the fallback, and the simulator's fault modes by account number.
 */
describe('Paystack rail, end to end', () => {
  let sim: PaystackSimulator;
  let service: TestService;
  let admin: string;
  let apiKey: string;
  beforeAll(async () => {
    sim = await startPaystackSimulator({ resultDelayMs: 50, delayedCallbackMs: 300 });
    service = await startTestService({
      PAYSTACK_SECRET_KEY: sim.secretKey, PAYSTACK_BASE_URL: sim.url, PAYSTACK_RESPONSE_TIMEOUT_MS: '800',
      // The simulator's webhooks come from this machine, not from Paystack's documented addresses.
      PAYSTACK_WEBHOOK_ALLOWED_IPS: '127.0.0.1',
      // A lost webhook is asked about after half a second, not the production minute.
      PAYSTACK_RESULT_WAIT_MS: '500',
    });
    sim.setWebhookUrl(`${service.baseUrl}/callbacks/paystack`);
    admin = await service.newAdminKey();
    ({ apiKey } = await liveTenant(service, admin));
  });
  afterAll(async () => {
    await service.close();
    await sim.close();
  });

  it('success: accepted, then settled by the signed webhook; the provider shows to admins only', async () => {
    const id = await moneyOut(service, apiKey, ngBankBody('10'));
    const payment = await settled(service, admin, id, 'succeeded');
    expect(payment).toMatchObject({ provider: 'paystack', providerRef: expect.stringMatching(/^TRF_/) });
    const issuerView = await service.call('GET', `/v1/payments/${id}`, { apiKey });
    expect(issuerView.body).not.toHaveProperty('provider');
    expect(await eventTypes(service, id)).toEqual(SUCCEEDED);
    expect(await ledgerKinds(service, id)).toEqual(['hold', 'send', 'settle']);
    await eventually(async () => ((await storedCallbacks(service, id)).some((e) => e.outcome === 'succeeded') ? true : undefined));
    expect((await service.call('GET', '/metrics', { apiKey: admin })).text).toMatch(/provider_callbacks_total\{provider="paystack",verdict="(applied|final)"\} [1-9]/);
  });

  it('failure after acceptance: failed, the amount returned', async () => {
    const id = await moneyOut(service, apiKey, ngBankBody('91'));
    const payment = await settled(service, admin, id, 'failed');
    expect(payment.failureReason).toMatch(/Paystack transfer failed/);
    expect(await ledgerKinds(service, id)).toEqual(['hold', 'send', 'return']);
  });

  it('abandoned (conclusive, no webhook): failed by verify, the amount returned and its onchain refund pending', async () => {
    const id = await moneyOut(service, apiKey, ngBankBody('89'));
    const payment = await settled(service, admin, id, 'failed');
    expect(payment.failureReason).toMatch(/abandoned the transfer/);
    expect(await storedCallbacks(service, id)).toEqual([]);
    expect(await eventTypes(service, id)).toEqual(['payment.initiated', 'payment.processing', 'payment.failed']);
    expect(await ledgerKinds(service, id)).toEqual(['hold', 'send', 'return']);
    const refunds = (await service.call('GET', '/v1/admin/refunds?status=pending&limit=500', { apiKey: admin })).body as Array<{ paymentId: string }>;
    expect(refunds.filter((r) => r.paymentId === id)).toEqual([expect.objectContaining({ status: 'pending', amount: payment.amountStablecoin, currency: 'USDC' })]);
  });

  it('a status Paystack does not document: the payment waits, shown to operators as a finding, and counted', async () => {
    const id = await moneyOut(service, apiKey, ngBankBody('88'));
    const finding = await eventually(async () => {
      const res = await service.call('GET', '/v1/admin/reconciliation/findings?limit=500', { apiKey: admin });
      return (res.body as Array<{ paymentId: string }>).find((f) => f.paymentId === id);
    });
    expect(finding).toMatchObject({
      provider: 'paystack', kind: 'unknown_provider_status', detail: 'paystack answered status "under_review", which we do not map: the payment waits for an operator',
    });
    expect((await service.call('GET', `/v1/admin/payments/${id}`, { apiKey: admin })).body.status).toBe('provider_accepted');
    expect(await ledgerKinds(service, id)).toEqual(['hold', 'send']);
    expect((await service.call('GET', '/metrics', { apiKey: admin })).text).toMatch(/reconciliation_mismatches_total\{provider="paystack",kind="unknown_provider_status"\} [1-9]/);
  });

  it('reversal: refunded, with the ledger return', async () => {
    const before = (await service.call('GET', '/v1/balances', { apiKey })).body;
    const id = await moneyOut(service, apiKey, ngBankBody('90'));
    const payment = await settled(service, admin, id, 'refunded');
    expect(payment.failureReason).toMatch(/reversed/);
    expect(await eventTypes(service, id)).toEqual(['payment.initiated', 'payment.processing', 'payment.refunded']);
    expect(await ledgerKinds(service, id)).toEqual(['hold', 'send', 'return']);
    // A live tenant's return waits for its onchain refund (docs/decisions.md § Ledger).
    const refunds = (await service.call('GET', '/v1/admin/refunds?status=pending&limit=500', { apiKey: admin })).body as Array<{ paymentId: string }>;
    expect(refunds.filter((r) => r.paymentId === id)).toEqual([expect.objectContaining({ status: 'pending', amount: payment.amountStablecoin, currency: 'USDC' })]);
    const after = (await service.call('GET', '/v1/balances', { apiKey })).body;
    const usdc = (b: Array<{ currency: string; inTransit: string; held: string }>) => b.find((x) => x.currency === 'USDC')!;
    expect([usdc(after).held, usdc(after).inTransit]).toEqual([usdc(before).held, usdc(before).inTransit]);
  });

  it('a duplicated webhook is acknowledged, stored once and applied once', async () => {
    const duplicates = await callbackCount(service, admin, 'paystack', 'duplicate');
    const id = await moneyOut(service, apiKey, ngBankBody('94'));
    await settled(service, admin, id, 'succeeded');
    await eventually(async () => ((await callbackCount(service, admin, 'paystack', 'duplicate')) > duplicates ? true : undefined));
    expect((await storedCallbacks(service, id)).map((e) => e.outcome)).toEqual(['succeeded']);
    expect(await eventTypes(service, id)).toEqual(SUCCEEDED);
    expect(await ledgerKinds(service, id)).toEqual(['hold', 'send', 'settle']);
  });

  it('a lost webhook: the payment is settled by polling verify', async () => {
    const id = await moneyOut(service, apiKey, ngBankBody('93'));
    await settled(service, admin, id, 'succeeded');
    expect(await storedCallbacks(service, id)).toEqual([]);
    expect(await eventTypes(service, id)).toEqual(SUCCEEDED);
  });

  it('a submit that times out (no webhook either) is resolved by a status query, never a second transfer', async () => {
    const posts = sim.requestCount('POST /transfer');
    sim.setFaults({ submit: 'hold', callback: 'missing' });
    let id: string;
    try {
      id = await moneyOut(service, apiKey, ngBankBody('10'));
      await settled(service, admin, id, 'succeeded', 20_000);
    } finally {
      sim.setFaults({});
      sim.release();
    }
    expect(await storedCallbacks(service, id)).toEqual([]);
    expect(sim.transfers().filter((t) => t.reference === id.toLowerCase())).toHaveLength(1);
    expect(sim.requestCount('POST /transfer') - posts).toBe(1);
    expect(await eventTypes(service, id)).toEqual(SUCCEEDED);
  });

  it('a live tenant\'s bank list and account resolution come from Paystack; a sandbox tenant keeps the sandbox ones', async () => {
    const live = await service.call('GET', '/v1/account/banks?country=NG', { apiKey });
    expect(live.status).toBe(200);
    // Access Bank (044) is in Paystack's list, not in the catalog's.
    expect(live.body).toContainEqual({ bankCode: '044', bankName: 'Access Bank' });
    const sandbox = await service.newTenant();
    const catalogList = await service.call('GET', '/v1/account/banks?country=NG', { apiKey: sandbox.apiKey });
    expect(catalogList.body).not.toContainEqual({ bankCode: '044', bankName: 'Access Bank' });

    const resolve = (key: string, accountNumber: string) => service.call('POST', '/account/resolve', {
      apiKey: key, body: { accountNumber, currency: 'NGN', paymentType: 'bank', bankCode: '058' },
    });
    const asked = () => sim.requestCount('GET /bank/resolve');
    const before = asked();
    const resolved = await resolve(apiKey, '0123456710');
    expect([resolved.status, resolved.body.accountName, asked() - before]).toEqual([200, holderName('0123456710'), 1]);
    expect((await resolve(sandbox.apiKey, '0123456710')).status).toBe(200);
    expect(asked() - before).toBe(1);
    // Mobile-money look-ups have no live directory: refused, not simulated.
    const momo = await service.call('POST', '/momo/resolve', { apiKey, body: { type: 'paybill', accountNumber: '123456' } });
    expect(momo.status).toBe(502);
  });

  it('the reconciliation report reads the configured Paystack through its list API: settled payments match', async () => {
    const from = new Date(Date.now() - 1000).toISOString();
    const id = await moneyOut(service, apiKey, ngBankBody('10'));
    await settled(service, admin, id, 'succeeded');
    const res = await service.call('GET', `/v1/admin/reconciliation?provider=paystack&from=${from}&to=${new Date(Date.now() + 1000).toISOString()}`, { apiKey: admin });
    expect(res.status).toBe(200);
    expect(res.body.compared).toBeGreaterThanOrEqual(1);
    for (const list of ['missingAtProvider', 'statusMismatches', 'amountMismatches', 'atProviderOnly', 'unconfirmed']) {
      expect((res.body[list] as Array<{ paymentId: string }>).map((e) => e.paymentId)).not.toContain(id);
    }
    expect(sim.requestCount('GET /transfer')).toBeGreaterThanOrEqual(1);
  });

  it('refuses webhooks with a wrong signature, storing nothing', async () => {
    const res = await fetch(`${service.baseUrl}/callbacks/paystack`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-paystack-signature': 'ab'.repeat(64) },
      body: JSON.stringify({ event: 'transfer.success', data: {} }),
    });
    expect(res.status).toBe(401);
  });
});

describe('Paystack rail: breaker and failover', () => {
  let sim: PaystackSimulator;
  let service: TestService;
  let admin: string;
  const backup = backupProvider();
  beforeAll(async () => {
    sim = await startPaystackSimulator({ resultDelayMs: 50 });
    service = await startTestService({
      PAYSTACK_SECRET_KEY: sim.secretKey, PAYSTACK_BASE_URL: sim.url,
      CATALOG_PATH: catalogWithRoutes((routes) => {
        // The fixed order: this file tests ordered failover, not ranking (which earlier payouts' figures would sway).
        Object.assign(routes.find((r) => r.country === 'NG' && r.method === 'BANK')!, { providers: ['paystack', 'backup'], strategy: 'ordered' });
      }),
      PROVIDER_BREAKER_FAILURES: '2', PROVIDER_BREAKER_HALF_OPEN_MS: '600000',
    }, { livePayoutProviders: [backup] });
    admin = await service.newAdminKey();
  });
  afterAll(async () => {
    await service.close();
    await sim.close();
  });

  it('a refusal before processing fails over at once; consecutive ones open the breaker and routing skips Paystack', async () => {
    const { apiKey } = await liveTenant(service, admin);
    sim.setFaults({ submit: 'insufficient_balance' });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const id = await moneyOut(service, apiKey, ngBankBody('10'));
      ids.push(id);
      expect(await settled(service, admin, id, 'succeeded')).toMatchObject({ provider: 'backup', providerRef: `BKP_${id.slice(4)}` });
    }
    // Two refusals opened the circuit: the third payment never reached Paystack.
    expect(sim.requestCount('POST /transfer')).toBe(2);
    expect(sim.transfers()).toEqual([]);
    expect(backup.submitted).toEqual(ids);
    // A corridor Paystack alone serves is refused before the hold while its circuit is open.
    const za = await service.call('POST', '/v1/payments/moneyout', {
      apiKey, headers: { 'idempotency-key': crypto.randomUUID() },
      body: ngBankBody('10', { country: 'ZA', destinationCurrency: 'ZAR', paymentCode: '632005', fiatAmount: '1000' }),
    });
    expect([za.status, za.body.code]).toEqual([503, 'provider_unavailable']);
    const metrics = (await service.call('GET', '/metrics', { apiKey: admin })).text;
    expect(metrics).toContain('payout_provider_circuit_open{provider="paystack"} 1');
    expect(metrics).toContain('payout_submissions_total{provider="paystack",outcome="retry"} 2');
    expect(metrics).toContain('payout_submissions_total{provider="backup",outcome="accepted"} 3');
    // Only the calls that reached a provider are timed: the two Paystack refused, none while its circuit was open.
    expect(metrics).toContain('payout_provider_call_duration_seconds_count{provider="paystack",operation="submit",outcome="retry"} 2');
    expect(metrics).toContain('payout_provider_call_duration_seconds_count{provider="backup",operation="submit",outcome="accepted"} 3');
  });
});
