import { startPawapaySimulator, type PawapaySimulator, type PawapaySimulatorOptions } from '../../simulators/pawapay/pawapay-simulator';
import { payoutIdOf } from '../../src/adapters/providers/pawapay/pawapay-wire';
import { liveTenant, moneyOut } from '../support/live-tenant';
import { callbackCount, eventTypes, ledgerKinds, settled, storedCallbacks } from '../support/provider-e2e';
import { eventually, freePort, moneyOutBody, startTestService, type TestService } from '../support/test-service';

const SUCCEEDED = ['payment.initiated', 'payment.processing', 'payment.succeeded'];
const SECRET = 'pp_secret_0123456789abcdefghijklmnopqrstuv';
/** A live Ugandan Airtel money-out (a corridor only pawaPay serves) to 2567012345<last2>, the simulator's fault digits. */
const ugAirtel = (last2: string) => moneyOutBody({
  country: 'UG', destinationCurrency: 'UGX', paymentCode: 'AIRTEL', fiatAmount: '50000', accountNumber: `2567012345${last2}`,
});

async function railOf(simOptions: PawapaySimulatorOptions, env: Record<string, string> = {}) {
  const port = await freePort();
  const sim = await startPawapaySimulator({
    processingDelayMs: 30, callbackDelayMs: 60, callbackUrl: `http://127.0.0.1:${port}/callbacks/pawapay/${SECRET}`, ...simOptions,
  });
  const service = await startTestService({
    PAWAPAY_BASE_URL: sim.url, PAWAPAY_API_TOKEN: sim.apiToken, PAWAPAY_ENVIRONMENT: 'sandbox', PAWAPAY_CALLBACK_SECRET: SECRET,
    PAWAPAY_CALLBACK_ALLOWED_IPS: '127.0.0.1,::1', PAWAPAY_RESPONSE_TIMEOUT_MS: '800', PAWAPAY_POLL_INTERVAL_MS: '400', ...env,
  }, {}, { port });
  return { sim, service };
}

/**
 * A live tenant's pawaPay payouts through the service to the pawaPay simulator over real HTTP
 * (docs/providers.md § pawaPay): callbacks to /callbacks/pawapay/{secret} trigger a status query,
 * which decides; the payout's status is also polled.
 */
describe('pawaPay rail, end to end', () => {
  let sim: PawapaySimulator;
  let service: TestService;
  let admin: string;
  let apiKey: string;
  beforeAll(async () => {
    ({ sim, service } = await railOf({}));
    admin = await service.newAdminKey();
    ({ apiKey } = await liveTenant(service, admin));
  });
  afterAll(async () => {
    await service.close();
    await sim.close();
  });

  const payoutsOf = (id: string) => sim.payouts().filter((p) => p.payoutId === payoutIdOf(id));

  it('success: one payout under the payment\'s payoutId, to AIRTEL_OAPI_UGA, settled, its callback stored', async () => {
    const id = await moneyOut(service, apiKey, ugAirtel('00'));
    expect(await settled(service, admin, id, 'succeeded')).toMatchObject({ provider: 'pawapay', providerRef: payoutIdOf(id) });
    expect(payoutsOf(id)).toMatchObject([{ amount: '50000', currency: 'UGX', recipient: { accountDetails: { provider: 'AIRTEL_OAPI_UGA' } } }]);
    expect(sim.submissions(payoutIdOf(id))).toBe(1);
    expect(await eventTypes(service, id)).toEqual(SUCCEEDED);
    expect(await ledgerKinds(service, id)).toEqual(['hold', 'send', 'settle']);
    await eventually(async () => ((await storedCallbacks(service, id)).some((e) => e.outcome === 'succeeded') ? true : undefined));
  });

  it('failure: FAILED RECIPIENT_NOT_FOUND with its code, the amount returned', async () => {
    const id = await moneyOut(service, apiKey, ugAirtel('10'));
    expect(await settled(service, admin, id, 'failed')).toMatchObject({ failureReason: expect.stringMatching(/RECIPIENT_NOT_FOUND/), failureCode: 'recipient_account_invalid' });
    expect(await ledgerKinds(service, id)).toEqual(['hold', 'send', 'return']);
  });

  it('a duplicated callback is acknowledged, stored once and applied once', async () => {
    const duplicates = await callbackCount(service, admin, 'pawapay', 'duplicate');
    const id = await moneyOut(service, apiKey, ugAirtel('21'));
    await settled(service, admin, id, 'succeeded');
    await eventually(async () => ((await callbackCount(service, admin, 'pawapay', 'duplicate')) > duplicates ? true : undefined));
    expect((await storedCallbacks(service, id)).map((e) => e.outcome)).toEqual(['succeeded']);
    expect(await eventTypes(service, id)).toEqual(SUCCEEDED);
    expect(await ledgerKinds(service, id)).toEqual(['hold', 'send', 'settle']);
  });

  it('a lost callback: polling the payout settles it', async () => {
    const id = await moneyOut(service, apiKey, ugAirtel('22'));
    await settled(service, admin, id, 'succeeded');
    expect(await storedCallbacks(service, id)).toEqual([]);
  });

  it('an unknown submission (the answer never comes) is looked up, never resubmitted: one request, one payout', async () => {
    const id = await moneyOut(service, apiKey, ugAirtel('40'));
    await settled(service, admin, id, 'succeeded', 20_000);
    expect(payoutsOf(id)).toHaveLength(1);
    expect(sim.submissions(payoutIdOf(id))).toBe(1);
    expect(await eventTypes(service, id)).toEqual(SUCCEEDED);
  });

  it('an HTTP 500 with nothing recorded is looked up (NOT_FOUND) before the payout is sent again', async () => {
    await fetch(`${sim.url}/__simulator/faults`, { method: 'POST', body: JSON.stringify({ submit: 'error_500' }) });
    const id = await moneyOut(service, apiKey, ugAirtel('00'));
    await eventually(async () => (sim.submissions(payoutIdOf(id)) >= 1 ? true : undefined));
    await fetch(`${sim.url}/__simulator/faults`, { method: 'POST', body: JSON.stringify({ submit: null }) });
    await settled(service, admin, id, 'succeeded', 20_000);
    expect(payoutsOf(id)).toHaveLength(1);
  });

  it('a status pawaPay does not document (SUBMITTED): the payment waits, shown to operators as a finding', async () => {
    const id = await moneyOut(service, apiKey, ugAirtel('70'));
    const finding = await eventually(async () => {
      const res = await service.call('GET', '/v1/admin/reconciliation/findings?limit=500', { apiKey: admin });
      return (res.body as Array<{ paymentId: string }>).find((f) => f.paymentId === id);
    });
    expect(finding).toMatchObject({ provider: 'pawapay', kind: 'unknown_provider_status', detail: expect.stringContaining('"SUBMITTED"') });
    expect((await service.call('GET', `/v1/admin/payments/${id}`, { apiKey: admin })).body.status).toBe('provider_accepted');
  });

  it('refuses a callback on a wrong path secret', async () => {
    const res = await fetch(`${service.baseUrl}/callbacks/pawapay/${'y'.repeat(40)}`, { method: 'POST', body: '{"status":"COMPLETED"}' });
    expect(res.status).toBe(404);
  });
});

describe('pawaPay rail: a callback never decides by itself', () => {
  let sim: PawapaySimulator;
  let service: TestService;
  let admin: string;
  let apiKey: string;
  beforeAll(async () => {
    // Polled only every ten minutes: what moves a payment here is the status query a callback triggers.
    ({ sim, service } = await railOf({}, { PAWAPAY_POLL_INTERVAL_MS: '600000' }));
    admin = await service.newAdminKey();
    ({ apiKey } = await liveTenant(service, admin));
  });
  afterAll(async () => {
    await service.close();
    await sim.close();
  });

  const callBack = async (paymentId: string, record: Record<string, unknown>) => {
    const res = await fetch(`${service.baseUrl}/callbacks/pawapay/${SECRET}`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ payoutId: payoutIdOf(paymentId), amount: '50000', currency: 'UGX', country: 'UGA', ...record }),
    });
    expect(res.status).toBe(200);
  };

  it('callback COMPLETED while pawaPay\'s record says FAILED: the status query wins, the payment fails', async () => {
    // Digits 50: the payout stays PROCESSING with no callback of its own.
    const id = await moneyOut(service, apiKey, ugAirtel('50'));
    await settled(service, admin, id, 'provider_accepted');
    // The simulator settles the payout into PROCESSING a moment after accepting it: change its record only then.
    await eventually(async () => (sim.payouts().find((p) => p.payoutId === payoutIdOf(id))?.status === 'PROCESSING' ? true : undefined));
    expect(sim.setStatus(payoutIdOf(id), 'FAILED', 'WALLET_LIMIT_REACHED')).toBe(true);
    await callBack(id, { status: 'COMPLETED', providerTransactionId: '900000001' });
    expect(await settled(service, admin, id, 'failed')).toMatchObject({ failureCode: 'limit_exceeded' });
    expect(await ledgerKinds(service, id)).toEqual(['hold', 'send', 'return']);
  });
});

describe('pawaPay rail: the callback source allow-list', () => {
  let sim: PawapaySimulator;
  let service: TestService;
  beforeAll(async () => {
    ({ sim, service } = await railOf({}, { PAWAPAY_CALLBACK_ALLOWED_IPS: '3.64.89.224/32' }));
  });
  afterAll(async () => {
    await service.close();
    await sim.close();
  });

  it('a callback from an unlisted address is 403 with the right secret as with a wrong one, and stores nothing', async () => {
    const paymentId = `pay_01J${'0'.repeat(23)}`;
    const body = JSON.stringify({ payoutId: payoutIdOf(paymentId), status: 'COMPLETED' });
    for (const secret of [SECRET, 'z'.repeat(40)]) {
      const res = await fetch(`${service.baseUrl}/callbacks/pawapay/${secret}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(res.status).toBe(403);
    }
    expect(await storedCallbacks(service, paymentId)).toEqual([]);
  });
});
