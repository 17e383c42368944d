import { startMpesaSimulator, type MpesaSimulator } from '../../simulators/mpesa/mpesa-simulator';
import { certificateFile, mpesaEnv } from '../providers/mpesa-harness';
import { liveTenant, moneyOut } from '../support/live-tenant';
import { backupProvider, callbackCount, catalogWithRoutes, eventTypes, ledgerKinds, settled, storedCallbacks } from '../support/provider-e2e';
import { eventually, freePort, moneyOutBody, startTestService, type TestService } from '../support/test-service';

const SUCCEEDED = ['payment.initiated', 'payment.processing', 'payment.succeeded'];
/** A live KE M-Pesa money-out to 2547123456<last2>, the simulator's fault digits. */
const mpesaBody = (last2: string) => moneyOutBody({ accountNumber: `2547123456${last2}` });

/** Starts the service with M-Pesa pointed at `sim`, its callback base URL on a port chosen before start. */
async function serviceFor(sim: MpesaSimulator, env: Record<string, string> = {}, overrides = {}): Promise<TestService> {
  const port = await freePort();
  return startTestService(
    { ...mpesaEnv(sim, `http://127.0.0.1:${port}/callbacks/mpesa`, certificateFile(sim), { MPESA_RESPONSE_TIMEOUT_MS: '800', MPESA_RESULT_WAIT_MS: '1500' }), ...env },
    overrides, { port },
  );
}

/**
 * A live tenant's M-Pesa B2C payouts through the service to the Daraja simulator over real HTTP
 * (docs/providers.md § Safaricom M-Pesa): results on the ResultURL callback route, Transaction
 * Status as the fallback, faults by the recipient's last two digits.
 */
describe('M-Pesa rail, end to end', () => {
  let sim: MpesaSimulator;
  let service: TestService;
  let admin: string;
  let apiKey: string;
  beforeAll(async () => {
    sim = await startMpesaSimulator({ callbackDelayMs: 30, delayedCallbackMs: 400 });
    service = await serviceFor(sim);
    admin = await service.newAdminKey();
    ({ apiKey } = await liveTenant(service, admin));
  });
  afterAll(async () => {
    await service.close();
    await sim.close();
  });

  it('success: accepted on the acknowledgement, settled by the result callback', async () => {
    const id = await moneyOut(service, apiKey, mpesaBody('00'));
    expect(await settled(service, admin, id, 'succeeded')).toMatchObject({ provider: 'mpesa', providerRef: id });
    expect(await eventTypes(service, id)).toEqual(SUCCEEDED);
    expect(await ledgerKinds(service, id)).toEqual(['hold', 'send', 'settle']);
    expect(await storedCallbacks(service, id)).toEqual([{ provider: 'mpesa', outcome: 'succeeded', verdict: 'applied' }]);
  });

  it('a PAYBILL payout goes by B2B with the account reference, settled by its result', async () => {
    const id = await moneyOut(service, apiKey, moneyOutBody({ paymentMethod: 'PAYBILL', businessNumber: '888800', accountNumber: 'INV-2041' }));
    const payment = await settled(service, admin, id, 'succeeded');
    expect(payment.provider).toBe('mpesa');
    const [transfer] = sim.transfers().filter((t) => t.originatorConversationId === payment.providerRef);
    expect(transfer).toMatchObject({ api: 'b2b', commandId: 'BusinessPayBill', partyB: '888800', accountReference: 'INV-2041', amount: '1500' });
  });

  it('failure: the result code fails the payment and returns the amount', async () => {
    const id = await moneyOut(service, apiKey, mpesaBody('11'));
    expect((await settled(service, admin, id, 'failed')).failureReason).toMatch(/M-Pesa result 2040/);
    expect(await ledgerKinds(service, id)).toEqual(['hold', 'send', 'return']);
  });

  it('a duplicated result is acknowledged, stored once and applied once', async () => {
    const duplicates = await callbackCount(service, admin, 'mpesa', 'duplicate');
    const id = await moneyOut(service, apiKey, mpesaBody('22'));
    await settled(service, admin, id, 'succeeded');
    await eventually(async () => ((await callbackCount(service, admin, 'mpesa', 'duplicate')) > duplicates ? true : undefined));
    expect((await storedCallbacks(service, id)).map((e) => e.outcome)).toEqual(['succeeded']);
    expect(await eventTypes(service, id)).toEqual(SUCCEEDED);
    expect(await ledgerKinds(service, id)).toEqual(['hold', 'send', 'settle']);
  });

  it('a lost result: the worker\'s Transaction Status query settles it', async () => {
    const id = await moneyOut(service, apiKey, mpesaBody('23'));
    await settled(service, admin, id, 'succeeded');
    expect(await eventTypes(service, id)).toEqual(SUCCEEDED);
    // The one stored callback is the status query's result.
    expect((await storedCallbacks(service, id)).map((e) => e.outcome)).toEqual(['succeeded']);
  });

  it('a submit that times out is settled without a second B2C request', async () => {
    const id = await moneyOut(service, apiKey, mpesaBody('41'));
    await settled(service, admin, id, 'succeeded');
    expect(sim.transfers().filter((t) => t.originatorConversationId === id)).toHaveLength(1);
    expect(await eventTypes(service, id)).toEqual(SUCCEEDED);
  });

  it('ResponseCode 100000000 (cached) is unknown: settled by the result that follows, with no second B2C request', async () => {
    const id = await moneyOut(service, apiKey, mpesaBody('33'));
    expect(await settled(service, admin, id, 'succeeded')).toMatchObject({ provider: 'mpesa', providerRef: expect.any(String) });
    expect(sim.transfers().filter((t) => t.originatorConversationId === id)).toHaveLength(1);
    expect(await eventTypes(service, id)).toEqual(SUCCEEDED);
  });

  it('a documented refusal in the acknowledgement (ResponseCode 100000005) fails the payment, the hold released', async () => {
    const id = await moneyOut(service, apiKey, mpesaBody('34'));
    expect((await settled(service, admin, id, 'failed')).failureReason).toBe('M-Pesa refused the request (ResponseCode 100000005)');
    expect(sim.transfers().filter((t) => t.originatorConversationId === id)).toEqual([]);
    expect(await eventTypes(service, id)).toEqual(['payment.initiated', 'payment.failed']);
  });

  it('a result code Daraja documents nowhere settles nothing by itself: counted as an unknown status, Transaction Status decides', async () => {
    const id = await moneyOut(service, apiKey, mpesaBody('13'));
    await settled(service, admin, id, 'succeeded');
    expect((await storedCallbacks(service, id)).map((e) => e.outcome)).toEqual(['pending', 'succeeded']);
    expect((await service.call('GET', '/metrics', { apiKey: admin })).text).toMatch(/reconciliation_mismatches_total\{provider="mpesa",kind="unknown_provider_status"\} [1-9]/);
  });

  it('a TransactionStatus word Daraja does not document: the payment waits, shown to operators as a finding', async () => {
    const id = await moneyOut(service, apiKey, mpesaBody('14'));
    const finding = await eventually(async () => {
      const res = await service.call('GET', '/v1/admin/reconciliation/findings?limit=500', { apiKey: admin });
      return (res.body as Array<{ paymentId: string }>).find((f) => f.paymentId === id);
    });
    expect(finding).toMatchObject({ provider: 'mpesa', kind: 'unknown_provider_status', detail: expect.stringContaining('"TransactionStatus OnHold"') });
    expect((await service.call('GET', `/v1/admin/payments/${id}`, { apiKey: admin })).body.status).toBe('provider_accepted');
  });

  it('refuses a callback with a wrong path secret, storing nothing', async () => {
    const id = await moneyOut(service, apiKey, mpesaBody('23'));
    const res = await fetch(`${service.baseUrl}/callbacks/mpesa/${'x'.repeat(40)}/result/${id}`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ Result: { ResultCode: 0, OriginatorConversationID: id, ConversationID: 'AG_1' } }),
    });
    expect(res.status).toBe(404);
    await settled(service, admin, id, 'succeeded');
    expect((await storedCallbacks(service, id)).every((e) => e.provider === 'mpesa')).toBe(true);
  });
});

describe('M-Pesa rail: breaker and failover', () => {
  let sim: MpesaSimulator;
  let service: TestService;
  const backup = backupProvider();
  beforeAll(async () => {
    sim = await startMpesaSimulator({ callbackDelayMs: 30 });
    service = await serviceFor(sim, {
      CATALOG_PATH: catalogWithRoutes((routes) => {
        // The fixed order: this file tests ordered failover, not ranking (which earlier payouts' figures would sway).
        Object.assign(routes.find((r) => r.country === 'KE' && r.method === 'MOMO')!, { providers: ['mpesa', 'backup'], strategy: 'ordered' });
      }),
      PROVIDER_BREAKER_FAILURES: '2', PROVIDER_BREAKER_HALF_OPEN_MS: '600000',
    }, { livePayoutProviders: [backup] });
  });
  afterAll(async () => {
    await service.close();
    await sim.close();
  });

  it('throttled B2C requests fail over at once; two in a row open the breaker and routing skips M-Pesa', async () => {
    const admin = await service.newAdminKey();
    const { apiKey } = await liveTenant(service, admin);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      // Ending 32: Daraja's spike arrest (500.003.02), nothing recorded.
      const id = await moneyOut(service, apiKey, mpesaBody('32'));
      ids.push(id);
      expect(await settled(service, admin, id, 'succeeded')).toMatchObject({ provider: 'backup' });
    }
    expect(backup.submitted).toEqual(ids);
    expect(sim.transfers()).toEqual([]);
  });
});
