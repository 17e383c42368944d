import { randomUUID } from 'node:crypto';
import { SENDER_ENV } from '../providers/flutterwave-harness';
import { startFlutterwaveSimulator, type FlutterwaveSimulator } from '../../simulators/flutterwave/flutterwave-simulator';
import { startPawapaySimulator, type PawapaySimulator } from '../../simulators/pawapay/pawapay-simulator';
import { payoutIdOf } from '../../src/adapters/providers/pawapay/pawapay-wire';
import { liveTenant } from '../support/live-tenant';
import { seededRandom } from '../support/seeded-random';
import { eventually, freePort, moneyOutBody, startTestService, type TestService } from '../support/test-service';

const SECRET = 'pp_secret_0123456789abcdefghijklmnopqrstuv';

/**
 * Routing on measured success over two real providers (docs/decisions.md § Payout providers:
 * routing on measured success): UG AIRTEL is routed to pawaPay, then Flutterwave
 * (data/corridors.json), each real adapter against its simulator over HTTP. The pawaPay simulator
 * fails a seeded 30 % of payouts (FAILED `UNKNOWN_ERROR`, its own fault); once its figures pass
 * the minimum sample, traffic shifts to Flutterwave within the window while the hedged share keeps
 * reaching pawaPay. Counted on the simulators' own ledgers.
 */
describe('success-rate routing across the pawaPay and Flutterwave simulators', () => {
  let pawapay: PawapaySimulator;
  let flutterwave: FlutterwaveSimulator;
  let service: TestService;
  let admin: string;
  beforeAll(async () => {
    const port = await freePort();
    pawapay = await startPawapaySimulator({ processingDelayMs: 20, callbackUrl: `http://127.0.0.1:${port}/callbacks/pawapay/${SECRET}` });
    flutterwave = await startFlutterwaveSimulator({ resultDelayMs: 20 });
    service = await startTestService({
      PAWAPAY_BASE_URL: pawapay.url, PAWAPAY_API_TOKEN: pawapay.apiToken, PAWAPAY_ENVIRONMENT: 'sandbox', PAWAPAY_CALLBACK_SECRET: SECRET,
      PAWAPAY_CALLBACK_ALLOWED_IPS: '127.0.0.1,::1', PAWAPAY_POLL_INTERVAL_MS: '400',
      FLUTTERWAVE_SECRET_KEY: flutterwave.secretKey, FLUTTERWAVE_BASE_URL: flutterwave.url, FLUTTERWAVE_WEBHOOK_SECRET_HASH: flutterwave.secretHash, ...SENDER_ENV,
      FLUTTERWAVE_RESULT_WAIT_MS: '500',
      ROUTING_MIN_SAMPLES: '10', ROUTING_HEDGE_PERCENT: '10', ROUTING_WINDOW_MS: '600000',
    }, { routingRandom: seededRandom(2612) }, { port });
    flutterwave.setWebhookUrl(`${service.baseUrl}/callbacks/flutterwave`);
    admin = await service.newAdminKey();
    // Figures earlier files left on this corridor (same database) would skew the start.
    await service.database.orm.em.fork().getConnection().execute(`delete from payout_provider_outcomes where country = 'UG' and payment_code = 'AIRTEL'`);
    const faults = await fetch(`${pawapay.url}/__simulator/faults`, { method: 'POST', body: JSON.stringify({ failShare: 0.3, seed: 26 }) });
    expect(faults.status).toBe(200);
  });
  afterAll(async () => {
    await service?.close();
    await pawapay?.close();
    await flutterwave?.close();
  });

  /** Pays `n` UG Airtel money-outs one after another, each to its end; returns where each went by the simulators' ledgers. */
  async function pay(apiKey: string, n: number): Promise<Array<{ id: string; at: 'pawapay' | 'flutterwave'; status: string }>> {
    const done: Array<{ id: string; at: 'pawapay' | 'flutterwave'; status: string }> = [];
    for (let i = 0; i < n; i += 1) {
      const res = await service.call('POST', '/v1/payments/moneyout', {
        apiKey, headers: { 'idempotency-key': randomUUID() },
        body: moneyOutBody({ country: 'UG', destinationCurrency: 'UGX', paymentCode: 'AIRTEL', fiatAmount: '20000', accountNumber: '256701234500' }),
      });
      expect(res.status).toBe(201);
      const id = res.body.id as string;
      const status = await eventually(async () => {
        const got = await service.call('GET', `/v1/admin/payments/${id}`, { apiKey: admin });
        return ['succeeded', 'failed'].includes(got.body.status) ? got.body.status as string : undefined;
      }, 20_000);
      const atPawapay = pawapay.payouts().filter((p) => p.payoutId === payoutIdOf(id)).length;
      const atFlutterwave = flutterwave.transfers().filter((t) => t.reference === id).length;
      // Each payment reached exactly one of the two simulators, once.
      expect(atPawapay + atFlutterwave).toBe(1);
      done.push({ id, at: atPawapay === 1 ? 'pawapay' : 'flutterwave', status });
    }
    return done;
  }
  const share = (payments: Array<{ at: string }>, name: string) => payments.filter((p) => p.at === name).length / payments.length;

  it('shifts traffic to Flutterwave within the window, and the hedged share keeps reaching pawaPay', async () => {
    const { apiKey } = await liveTenant(service, admin, 1_000_000);
    // Neither has figures yet: the table's order sends most to pawaPay, bar hedges; some fail there.
    const warmUp = await pay(apiKey, 20);
    expect(share(warmUp.slice(0, 10), 'pawapay')).toBeGreaterThanOrEqual(0.7);
    const failedAtPawapay = warmUp.filter((p) => p.at === 'pawapay' && p.status === 'failed');
    expect(failedAtPawapay.length).toBeGreaterThan(0);
    for (const p of failedAtPawapay) {
      expect(pawapay.payouts().find((x) => x.payoutId === payoutIdOf(p.id))).toMatchObject({ status: 'FAILED', failureReason: { failureCode: 'UNKNOWN_ERROR' } });
    }

    const later = await pay(apiKey, 40);
    expect(share(later, 'flutterwave')).toBeGreaterThanOrEqual(0.75);
    const hedged = later.filter((p) => p.at === 'pawapay');
    expect(hedged.length).toBeGreaterThanOrEqual(1);
    for (const p of hedged) {
      const routing = (await service.call('GET', `/v1/admin/payments/${p.id}`, { apiKey: admin })).body.routing;
      expect([routing.reason, routing.hedged]).toEqual(['hedged', true]);
    }
    expect(later.filter((p) => p.at === 'flutterwave').every((p) => p.status === 'succeeded')).toBe(true);
  }, 180_000);
});
