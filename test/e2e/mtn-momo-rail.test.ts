import { startMtnMomoSimulator, type MtnMomoSimulator, type MtnMomoSimulatorOptions } from '../../simulators/mtn-momo/mtn-momo-simulator';
import { transferReferenceOf } from '../../src/adapters/providers/mtn-momo/mtn-momo-wire';
import { liveTenant, moneyOut } from '../support/live-tenant';
import { backupProvider, callbackCount, catalogWithRoutes, eventTypes, ledgerKinds, settled, storedCallbacks } from '../support/provider-e2e';
import { eventually, freePort, moneyOutBody, startTestService, type TestService } from '../support/test-service';

const SUCCEEDED = ['payment.initiated', 'payment.processing', 'payment.succeeded'];
const SECRET = 'cb_secret_0123456789abcdefghijklmnopqrstuv';
/** A live Ugandan MTN MoMo money-out to 2567712345<last2>, the simulator's fault digits. */
const ugBody = (last2: string) => moneyOutBody({
  country: 'UG', destinationCurrency: 'UGX', paymentCode: 'MTN', fiatAmount: '50000', accountNumber: `2567712345${last2}`,
});

async function railOf(simOptions: MtnMomoSimulatorOptions, env: Record<string, string> = {}, overrides = {}) {
  const sim = await startMtnMomoSimulator({ processingDelayMs: 30, callbackDelayMs: 60, ...simOptions });
  const port = await freePort();
  const service = await startTestService({
    MTN_MOMO_BASE_URL: sim.url, MTN_MOMO_SUBSCRIPTION_KEY: sim.credentials.subscriptionKey, MTN_MOMO_API_USER: sim.credentials.apiUser,
    MTN_MOMO_API_KEY: sim.credentials.apiKey, MTN_MOMO_TARGET_ENVIRONMENT: 'sandbox', MTN_MOMO_SANDBOX_CURRENCY: 'EUR',
    MTN_MOMO_CALLBACK_BASE_URL: `http://127.0.0.1:${port}/callbacks/mtn-momo`, MTN_MOMO_CALLBACK_SECRET: SECRET,
    MTN_MOMO_CALLBACK_ALLOWED_IPS: '127.0.0.1', MTN_MOMO_RESPONSE_TIMEOUT_MS: '800', MTN_MOMO_POLL_INTERVAL_MS: '400', ...env,
  }, overrides, { port });
  return { sim, service };
}

/**
 * A live tenant's MTN MoMo disbursements through the service to the MTN simulator over real HTTP
 * (docs/providers.md § MTN MoMo Disbursements): callbacks to /callbacks/mtn-momo/{secret} trigger a
 * status query, which decides; GET on the transfer is also polled.
 */
describe('MTN MoMo rail, end to end', () => {
  let sim: MtnMomoSimulator;
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

  const transfersOf = (id: string) => sim.transfers().filter((t) => t.referenceId === transferReferenceOf(id));

  it('success: one transfer under the payment\'s X-Reference-Id, settled, its callback stored', async () => {
    const id = await moneyOut(service, apiKey, ugBody('00'));
    expect(await settled(service, admin, id, 'succeeded')).toMatchObject({ provider: 'mtn_momo', providerRef: transferReferenceOf(id) });
    expect(transfersOf(id)).toHaveLength(1);
    expect(await eventTypes(service, id)).toEqual(SUCCEEDED);
    expect(await ledgerKinds(service, id)).toEqual(['hold', 'send', 'settle']);
    await eventually(async () => ((await storedCallbacks(service, id)).some((e) => e.outcome === 'succeeded') ? true : undefined));
  });

  it('failure: FAILED with its reason, the amount returned', async () => {
    const id = await moneyOut(service, apiKey, ugBody('10'));
    expect((await settled(service, admin, id, 'failed')).failureReason).toMatch(/PAYEE_NOT_FOUND/);
    expect(await ledgerKinds(service, id)).toEqual(['hold', 'send', 'return']);
  });

  it('a duplicated callback is acknowledged, stored once and applied once', async () => {
    const duplicates = await callbackCount(service, admin, 'mtn_momo', 'duplicate');
    const id = await moneyOut(service, apiKey, ugBody('21'));
    await settled(service, admin, id, 'succeeded');
    await eventually(async () => ((await callbackCount(service, admin, 'mtn_momo', 'duplicate')) > duplicates ? true : undefined));
    expect((await storedCallbacks(service, id)).map((e) => e.outcome)).toEqual(['succeeded']);
    expect(await eventTypes(service, id)).toEqual(SUCCEEDED);
    expect(await ledgerKinds(service, id)).toEqual(['hold', 'send', 'settle']);
  });

  it('a lost callback: polling the transfer settles it', async () => {
    const id = await moneyOut(service, apiKey, ugBody('22'));
    await settled(service, admin, id, 'succeeded');
    expect(await storedCallbacks(service, id)).toEqual([]);
  });

  it('a submit that times out is settled by a status query, one transfer', async () => {
    const id = await moneyOut(service, apiKey, ugBody('40'));
    await settled(service, admin, id, 'succeeded', 20_000);
    expect(transfersOf(id)).toHaveLength(1);
    expect(await eventTypes(service, id)).toEqual(SUCCEEDED);
  });

  it('a status MTN does not document (ONGOING): the payment waits, shown to operators as a finding', async () => {
    const id = await moneyOut(service, apiKey, ugBody('70'));
    const finding = await eventually(async () => {
      const res = await service.call('GET', '/v1/admin/reconciliation/findings?limit=500', { apiKey: admin });
      return (res.body as Array<{ paymentId: string }>).find((f) => f.paymentId === id);
    });
    expect(finding).toMatchObject({ provider: 'mtn_momo', kind: 'unknown_provider_status', detail: expect.stringContaining('"ONGOING"') });
    expect((await service.call('GET', `/v1/admin/payments/${id}`, { apiKey: admin })).body.status).toBe('provider_accepted');
  });

  it('refuses a callback on a wrong path secret', async () => {
    const res = await fetch(`${service.baseUrl}/callbacks/mtn-momo/${'y'.repeat(40)}`, { method: 'PUT', body: '{"status":"SUCCESSFUL"}' });
    expect(res.status).toBe(404);
  });
});

describe('MTN MoMo rail: a callback never decides by itself', () => {
  let sim: MtnMomoSimulator;
  let service: TestService;
  let admin: string;
  let apiKey: string;
  beforeAll(async () => {
    // Polled only every ten minutes: what moves a payment here is the status query a callback triggers.
    ({ sim, service } = await railOf({}, { MTN_MOMO_POLL_INTERVAL_MS: '600000' }));
    admin = await service.newAdminKey();
    ({ apiKey } = await liveTenant(service, admin));
  });
  afterAll(async () => {
    await service.close();
    await sim.close();
  });

  /** POSTs an MTN-shaped callback for `paymentId` to the service, as MTN would (unsigned). */
  const callBack = async (paymentId: string, record: Record<string, unknown>) => {
    const res = await fetch(`${service.baseUrl}/callbacks/mtn-momo/${SECRET}`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ amount: '50000', currency: 'EUR', externalId: paymentId, payee: { partyIdType: 'MSISDN', partyId: '256771234550' }, ...record }),
    });
    expect(res.status).toBe(200);
  };
  /** An accepted payment whose transfer stays PENDING at MTN (digits 50: no callback of its own). */
  const acceptedPending = async () => {
    const id = await moneyOut(service, apiKey, ugBody('50'));
    await settled(service, admin, id, 'provider_accepted');
    return id;
  };

  it('callback SUCCESSFUL while MTN\'s record says FAILED: the status query wins, the payment fails', async () => {
    const id = await acceptedPending();
    expect(sim.setStatus(transferReferenceOf(id), 'FAILED', 'NOT_ENOUGH_FUNDS')).toBe(true);
    await callBack(id, { status: 'SUCCESSFUL', financialTransactionId: '900000001' });
    expect((await settled(service, admin, id, 'failed')).failureReason).toMatch(/NOT_ENOUGH_FUNDS/);
    expect(await eventTypes(service, id)).toEqual(['payment.initiated', 'payment.processing', 'payment.failed']);
    expect(await ledgerKinds(service, id)).toEqual(['hold', 'send', 'return']);
  });

  it('callback FAILED while MTN\'s record says PENDING: the payment stays provider_accepted', async () => {
    const id = await acceptedPending();
    await callBack(id, { status: 'FAILED', reason: 'PAYEE_NOT_FOUND' });
    await eventually(async () => ((await storedCallbacks(service, id)).some((e) => e.verdict === 'applied') ? true : undefined));
    // The callback's status query has run (it was due at once) and found PENDING.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await service.call('GET', `/v1/admin/payments/${id}`, { apiKey: admin })).body.status).toBe('provider_accepted');
    expect(await eventTypes(service, id)).toEqual(['payment.initiated', 'payment.processing']);
    // Once MTN's record is final, the next callback's status query settles it.
    sim.setStatus(transferReferenceOf(id), 'SUCCESSFUL');
    await callBack(id, { status: 'SUCCESSFUL', financialTransactionId: '900000002' });
    await settled(service, admin, id, 'succeeded');
  });
});

describe('MTN MoMo rail: breaker and failover', () => {
  let sim: MtnMomoSimulator;
  let service: TestService;
  const backup = backupProvider();
  beforeAll(async () => {
    // MTN refuses every transfer: the callback host differs from the API user's (500 INVALID_CALLBACK_URL_HOST, our configuration).
    ({ sim, service } = await railOf({ providerCallbackHost: 'callbacks.example' }, {
      CATALOG_PATH: catalogWithRoutes((routes) => {
        // The fixed order: this file tests ordered failover, not ranking (which earlier payouts' figures would sway).
        Object.assign(routes.find((r) => r.country === 'UG' && r.method === 'MOMO')!, { providers: ['mtn_momo', 'backup'], strategy: 'ordered' });
      }),
      PROVIDER_BREAKER_FAILURES: '2', PROVIDER_BREAKER_HALF_OPEN_MS: '600000',
    }, { livePayoutProviders: [backup] }));
  });
  afterAll(async () => {
    await service.close();
    await sim.close();
  });

  it('a refusal of our setup fails over at once; two in a row open the breaker and routing skips MTN', async () => {
    const admin = await service.newAdminKey();
    const { apiKey } = await liveTenant(service, admin);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const id = await moneyOut(service, apiKey, ugBody('00'));
      ids.push(id);
      expect(await settled(service, admin, id, 'succeeded')).toMatchObject({ provider: 'backup' });
    }
    expect(backup.submitted).toEqual(ids);
    expect(sim.transfers()).toEqual([]);
  });
});
