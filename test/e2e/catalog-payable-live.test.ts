import { randomUUID } from 'node:crypto';
import { SENDER_ENV } from '../providers/flutterwave-harness';
import { startFlutterwaveSimulator, type FlutterwaveSimulator } from '../../simulators/flutterwave/flutterwave-simulator';
import { startMpesaSimulator, type MpesaSimulator } from '../../simulators/mpesa/mpesa-simulator';
import { startMtnMomoSimulator, type MtnMomoSimulator } from '../../simulators/mtn-momo/mtn-momo-simulator';
import { startPawapaySimulator, type PawapaySimulator } from '../../simulators/pawapay/pawapay-simulator';
import { startPaystackSimulator, type PaystackSimulator } from '../../simulators/paystack/paystack-simulator';
import { loadCatalog } from '../../src/adapters/providers/catalog-file';
import { MONEY_OUT_COUNTRIES } from '../../src/core/catalog/catalog';
import { certificateFile, mpesaEnv } from '../providers/mpesa-harness';
import { liveTenant, moneyOut } from '../support/live-tenant';
import { settled } from '../support/provider-e2e';
import { freePort, moneyOutBody, startTestService, type TestService } from '../support/test-service';

const catalog = loadCatalog('data/corridors.json');
const PAWAPAY_SECRET = 'pp_secret_0123456789abcdefghijklmnopqrstuv';

/** Every (country, method, code) a money-out can name, and the providers the routing table lists for it. */
const corridors = MONEY_OUT_COUNTRIES.flatMap((country) => Object.entries(catalog.countries[country]?.methods ?? {}).flatMap(([method, offer]) =>
  offer.codes.map((code) => {
    const rows = catalog.payoutRoutes.filter((r) => r.country === country && r.method === method && (!r.codes || r.codes.includes(code)));
    return { country, method, code, providers: rows.flatMap((r) => r.providers), min: offer.min };
  })));
const served = corridors.filter((c) => c.providers.length > 0);
const unserved = corridors.filter((c) => c.providers.length === 0);

/** A recipient the simulators pay without a fault: a number or account ending in 00 or 10 (their fault digits are others). */
function recipient(country: string, method: string, code: string): Record<string, unknown> {
  const dial = catalog.countries[country as 'KE']!.dialCode;
  if (method === 'BANK') return { accountNumber: '0123456710', accountName: 'Adaeze Okafor' };
  if (method === 'PAYBILL') return { businessNumber: '888800', accountNumber: 'INV-2041' };
  if (method === 'TILL') return { accountNumber: '555500' };
  return { accountNumber: `${dial}712345600`, paymentCode: code };
}

/**
 * Every catalog corridor is payable live when all five payout providers are configured, each real
 * adapter against its simulator over HTTP (docs/providers.md § corridors): a money-out to each
 * (country, method, code) succeeds through one of the providers its routing row lists; corridors
 * no provider serves are refused with 422 `corridor_not_available`; GET /v1/corridors says the same.
 */
describe('the whole catalog, live, with every provider configured', () => {
  let mpesa: MpesaSimulator;
  let mtn: MtnMomoSimulator;
  let paystack: PaystackSimulator;
  let flutterwave: FlutterwaveSimulator;
  let pawapay: PawapaySimulator;
  let service: TestService;
  let admin: string;
  let apiKey: string;
  beforeAll(async () => {
    const port = await freePort();
    mpesa = await startMpesaSimulator({ callbackDelayMs: 20 });
    mtn = await startMtnMomoSimulator({ processingDelayMs: 20, callbackDelayMs: 40 });
    paystack = await startPaystackSimulator({ resultDelayMs: 20 });
    flutterwave = await startFlutterwaveSimulator({ resultDelayMs: 20 });
    pawapay = await startPawapaySimulator({ processingDelayMs: 20, callbackUrl: `http://127.0.0.1:${port}/callbacks/pawapay/${PAWAPAY_SECRET}` });
    service = await startTestService({
      ...mpesaEnv(mpesa, `http://127.0.0.1:${port}/callbacks/mpesa`, certificateFile(mpesa), { MPESA_RESULT_WAIT_MS: '1500' }),
      MTN_MOMO_BASE_URL: mtn.url, MTN_MOMO_SUBSCRIPTION_KEY: mtn.credentials.subscriptionKey, MTN_MOMO_API_USER: mtn.credentials.apiUser,
      MTN_MOMO_API_KEY: mtn.credentials.apiKey, MTN_MOMO_TARGET_ENVIRONMENT: 'sandbox', MTN_MOMO_SANDBOX_CURRENCY: 'EUR',
      MTN_MOMO_CALLBACK_BASE_URL: `http://127.0.0.1:${port}/callbacks/mtn-momo`, MTN_MOMO_CALLBACK_SECRET: 'cb_secret_0123456789abcdefghijklmnopqrstuv',
      MTN_MOMO_CALLBACK_ALLOWED_IPS: '127.0.0.1', MTN_MOMO_POLL_INTERVAL_MS: '400',
      PAYSTACK_SECRET_KEY: paystack.secretKey, PAYSTACK_BASE_URL: paystack.url, PAYSTACK_RESULT_WAIT_MS: '500',
      FLUTTERWAVE_SECRET_KEY: flutterwave.secretKey, FLUTTERWAVE_BASE_URL: flutterwave.url, FLUTTERWAVE_WEBHOOK_SECRET_HASH: flutterwave.secretHash, ...SENDER_ENV,
      FLUTTERWAVE_RESULT_WAIT_MS: '500',
      PAWAPAY_BASE_URL: pawapay.url, PAWAPAY_API_TOKEN: pawapay.apiToken, PAWAPAY_ENVIRONMENT: 'sandbox', PAWAPAY_CALLBACK_SECRET: PAWAPAY_SECRET,
      PAWAPAY_CALLBACK_ALLOWED_IPS: '127.0.0.1,::1', PAWAPAY_POLL_INTERVAL_MS: '400',
    }, {}, { port });
    flutterwave.setWebhookUrl(`${service.baseUrl}/callbacks/flutterwave`);
    admin = await service.newAdminKey();
    ({ apiKey } = await liveTenant(service, admin, 1_000_000));
  });
  afterAll(async () => {
    await service?.close();
    await Promise.all([mpesa, mtn, paystack, flutterwave, pawapay].map((sim) => sim?.close()));
  });

  it('the catalog has corridors no provider serves, and they are the ones docs/providers.md lists', () => {
    expect(unserved.map((c) => `${c.country} ${c.method} ${c.code}`)).toEqual(['KE MOMO AIRTEL']);
  });

  it.each(served.map((c) => [c.country, c.method, c.code, c] as const))('%s %s %s: a live money-out succeeds through a provider its row lists', async (country, method, code, c) => {
    const id = await moneyOut(service, apiKey, moneyOutBody({
      country, paymentMethod: method, paymentCode: code, destinationCurrency: catalog.countries[country]!.currency,
      fiatAmount: String(Number(c.min) * 10), ...recipient(country, method, code),
    }));
    const payment = await settled(service, admin, id, 'succeeded', 20_000);
    expect(c.providers).toContain(payment.provider);
  });

  it.each(unserved.map((c) => [c.country, c.method, c.code, c] as const))('%s %s %s: refused with 422 corridor_not_available', async (country, method, code, c) => {
    const res = await service.call('POST', '/v1/payments/moneyout', {
      apiKey, headers: { 'idempotency-key': randomUUID() },
      body: moneyOutBody({ country, paymentMethod: method, paymentCode: code, destinationCurrency: catalog.countries[country]!.currency, fiatAmount: String(Number(c.min) * 10), ...recipient(country, method, code) }),
    });
    expect([res.status, res.body?.code]).toEqual([422, 'corridor_not_available']);
  });

  it('Ethiopia (legacy payout only, BANK) has no live provider: refused with 422 corridor_not_available', async () => {
    const res = await service.call('POST', '/momo/payout', {
      apiKey, body: { amount: 2000, destination: 'Bank', accountName: 'Abebe Bekele', accountNumber: '1000123456', reference: `legacy-${randomUUID()}`, currency: 'ETB', country: 'ET', code: '100004' },
    });
    expect([res.status, res.body?.code]).toEqual([422, 'corridor_not_available']);
  });

  it('GET /v1/corridors agrees: payable exactly where a provider serves', async () => {
    const res = await service.call('GET', '/v1/corridors', { apiKey });
    expect(res.status).toBe(200);
    const listed = (res.body as Array<{ country: string; paymentMethod: string; paymentCode: string; payable: boolean; unavailableCode: string | null }>)
      .map((c) => [`${c.country} ${c.paymentMethod} ${c.paymentCode}`, c.payable, c.unavailableCode] as const);
    const expected = corridors.map((c) => [`${c.country} ${c.method} ${c.code}`, c.providers.length > 0, c.providers.length > 0 ? null : 'corridor_not_available'] as const);
    expect(listed.sort()).toEqual(expected.sort());
  });
});
