import { startFlutterwaveSimulator, type FlutterwaveSimulator } from '../../simulators/flutterwave/flutterwave-simulator';
import { SENDER_ENV } from '../providers/flutterwave-harness';
import { liveTenant, moneyOut, ngBankBody } from '../support/live-tenant';
import { callbackCount, eventTypes, ledgerKinds, settled, storedCallbacks } from '../support/provider-e2e';
import { eventually, moneyOutBody, startTestService, type TestService } from '../support/test-service';

const SUCCEEDED = ['payment.initiated', 'payment.processing', 'payment.succeeded'];
/** A live Airtel Uganda money-out to 2567012345<last2>, the simulator's fault digits (Flutterwave alone serves it). */
const ugAirtel = (last2: string) => moneyOutBody({
  country: 'UG', destinationCurrency: 'UGX', paymentCode: 'AIRTEL', fiatAmount: '50000', accountNumber: `2567012345${last2}`,
});

/**
 * A live tenant's payouts through the service to the Flutterwave simulator over real HTTP
 * (docs/providers.md § Flutterwave Transfers): `transfer.completed` webhooks with `verif-hash` to
 * /callbacks/flutterwave, each confirmed by a status query (`GET /v3/transfers?reference=`), which
 * decides; the same query is the fallback when a webhook is lost.
 */
describe('Flutterwave rail, end to end', () => {
  let sim: FlutterwaveSimulator;
  let service: TestService;
  let admin: string;
  let apiKey: string;
  beforeAll(async () => {
    sim = await startFlutterwaveSimulator({ resultDelayMs: 50, delayedCallbackMs: 300 });
    service = await startTestService({
      FLUTTERWAVE_SECRET_KEY: sim.secretKey, FLUTTERWAVE_BASE_URL: sim.url, FLUTTERWAVE_WEBHOOK_SECRET_HASH: sim.secretHash, ...SENDER_ENV,
      FLUTTERWAVE_RESPONSE_TIMEOUT_MS: '800',
      // A lost webhook is asked about after half a second, not the production minute.
      FLUTTERWAVE_RESULT_WAIT_MS: '500',
    });
    sim.setWebhookUrl(`${service.baseUrl}/callbacks/flutterwave`);
    admin = await service.newAdminKey();
    ({ apiKey } = await liveTenant(service, admin));
  });
  afterAll(async () => {
    await service.close();
    await sim.close();
  });

  it('success (mobile money): accepted, the webhook confirmed by a status query, settled; the provider shows to admins only', async () => {
    const id = await moneyOut(service, apiKey, ugAirtel('10'));
    const payment = await settled(service, admin, id, 'succeeded');
    expect(payment).toMatchObject({ provider: 'flutterwave', providerRef: expect.stringMatching(/^\d+$/) });
    expect((await service.call('GET', `/v1/payments/${id}`, { apiKey })).body).not.toHaveProperty('provider');
    expect(await eventTypes(service, id)).toEqual(SUCCEEDED);
    expect(await ledgerKinds(service, id)).toEqual(['hold', 'send', 'settle']);
    await eventually(async () => ((await storedCallbacks(service, id)).some((e) => e.outcome === 'succeeded') ? true : undefined));
    const transfer = sim.transfers().find((t) => t.reference === id)!;
    expect([transfer.bank_code, transfer.account_number, transfer.currency]).toEqual(['AIRTEL', '256701234510', 'UGX']);
  });

  it('success (Nigerian bank): Flutterwave serves NG banks when Paystack is not configured', async () => {
    const id = await moneyOut(service, apiKey, ngBankBody('10'));
    expect(await settled(service, admin, id, 'succeeded')).toMatchObject({ provider: 'flutterwave' });
    expect(sim.transfers().find((t) => t.reference === id)).toMatchObject({ bank_code: '058', currency: 'NGN', amount: 15000 });
  });

  it('success (Kenya M-Pesa): Flutterwave serves it when M-Pesa Daraja is not configured, with the sender the simulator requires', async () => {
    const id = await moneyOut(service, apiKey, moneyOutBody({ fiatAmount: '1500.50', accountNumber: '254712345610' }));
    expect(await settled(service, admin, id, 'succeeded')).toMatchObject({ provider: 'flutterwave' });
    expect(sim.transfers().find((t) => t.reference === id)).toMatchObject({ bank_code: 'MPS', account_number: '254712345610', currency: 'KES', amount: 1500.5 });
  });

  it('failure after acceptance: failed with Flutterwave\'s message, the amount returned', async () => {
    const id = await moneyOut(service, apiKey, ugAirtel('91'));
    const payment = await settled(service, admin, id, 'failed');
    expect(payment.failureReason).toMatch(/^Flutterwave transfer failed: DISBURSE FAILED/);
    expect(await ledgerKinds(service, id)).toEqual(['hold', 'send', 'return']);
  });

  it('a webhook with the right hash is not believed alone: claiming success for a pending transfer changes nothing', async () => {
    const id = await moneyOut(service, apiKey, ugAirtel('99'));
    const transfer = await sim.waitFor(id, 'PENDING');
    const forged = { event: 'transfer.completed', 'event.type': 'Transfer', data: { id: transfer.id, reference: id, status: 'SUCCESSFUL', amount: 50000, currency: 'UGX', complete_message: 'Successful' } };
    const res = await fetch(`${service.baseUrl}/callbacks/flutterwave`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'verif-hash': sim.secretHash }, body: JSON.stringify(forged),
    });
    expect(res.status).toBe(200);
    await eventually(async () => ((await storedCallbacks(service, id)).some((e) => e.verdict !== 'received') ? true : undefined));
    expect((await service.call('GET', `/v1/admin/payments/${id}`, { apiKey: admin })).body.status).toBe('provider_accepted');
    expect(await ledgerKinds(service, id)).toEqual(['hold', 'send']);
  });

  it('a status Flutterwave does not document: the payment waits, shown to operators as a finding', async () => {
    const id = await moneyOut(service, apiKey, ugAirtel('88'));
    const finding = await eventually(async () => {
      const res = await service.call('GET', '/v1/admin/reconciliation/findings?limit=500', { apiKey: admin });
      return (res.body as Array<{ paymentId: string }>).find((f) => f.paymentId === id);
    });
    expect(finding).toMatchObject({ provider: 'flutterwave', kind: 'unknown_provider_status' });
    expect((await service.call('GET', `/v1/admin/payments/${id}`, { apiKey: admin })).body.status).toBe('provider_accepted');
  });

  it('a duplicated webhook is acknowledged, stored once and applied once', async () => {
    const duplicates = await callbackCount(service, admin, 'flutterwave', 'duplicate');
    const id = await moneyOut(service, apiKey, ugAirtel('94'));
    await settled(service, admin, id, 'succeeded');
    await eventually(async () => ((await callbackCount(service, admin, 'flutterwave', 'duplicate')) > duplicates ? true : undefined));
    expect((await storedCallbacks(service, id)).map((e) => e.outcome)).toEqual(['succeeded']);
    expect(await eventTypes(service, id)).toEqual(SUCCEEDED);
    expect(await ledgerKinds(service, id)).toEqual(['hold', 'send', 'settle']);
  });

  it('a lost webhook: the payment is settled by the status query', async () => {
    const id = await moneyOut(service, apiKey, ugAirtel('93'));
    await settled(service, admin, id, 'succeeded');
    expect(await storedCallbacks(service, id)).toEqual([]);
    expect(await eventTypes(service, id)).toEqual(SUCCEEDED);
  });

  it('a submit that times out (no webhook either) is resolved by a status query, never a second transfer', async () => {
    const posts = sim.requestCount('POST /v3/transfers');
    sim.setFaults({ submit: 'hold', callback: 'missing' });
    let id: string;
    try {
      id = await moneyOut(service, apiKey, ugAirtel('10'));
      await settled(service, admin, id, 'succeeded', 20_000);
    } finally {
      sim.setFaults({});
      sim.release();
    }
    expect(sim.transfers().filter((t) => t.reference === id)).toHaveLength(1);
    expect(sim.requestCount('POST /v3/transfers') - posts).toBe(1);
    expect(await eventTypes(service, id)).toEqual(SUCCEEDED);
  });

  it('the reconciliation report reads Flutterwave through its list API: settled payments match', async () => {
    const from = new Date(Date.now() - 1000).toISOString();
    const id = await moneyOut(service, apiKey, ugAirtel('10'));
    await settled(service, admin, id, 'succeeded');
    const res = await service.call('GET', `/v1/admin/reconciliation?provider=flutterwave&from=${from}&to=${new Date(Date.now() + 1000).toISOString()}`, { apiKey: admin });
    expect(res.status).toBe(200);
    expect(res.body.compared).toBeGreaterThanOrEqual(1);
    for (const list of ['missingAtProvider', 'statusMismatches', 'amountMismatches', 'atProviderOnly', 'unconfirmed']) {
      expect((res.body[list] as Array<{ paymentId: string }>).map((e) => e.paymentId)).not.toContain(id);
    }
  });

  it('refuses webhooks with a wrong or missing verif-hash, storing nothing', async () => {
    for (const headers of [{ 'verif-hash': 'not-the-hash' }, {}] as Array<Record<string, string>>) {
      const res = await fetch(`${service.baseUrl}/callbacks/flutterwave`, {
        method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ event: 'transfer.completed', data: {} }),
      });
      expect(res.status).toBe(401);
    }
  });
});
