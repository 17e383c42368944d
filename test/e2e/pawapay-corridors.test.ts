import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startPawapaySimulator, type PawapaySimulator } from '../../simulators/pawapay/pawapay-simulator';
import { liveTenant, moneyOut } from '../support/live-tenant';
import { settled } from '../support/provider-e2e';
import { freePort, moneyOutBody, startTestService, type TestService } from '../support/test-service';

interface Catalog {
  payoutRoutes: Array<{ country: string; method: string; codes?: string[]; providers: string[] }>;
  countries: Record<string, { currency: string; dialCode: string; methods: Record<string, { min: string; max: string }> }>;
}
const catalog = JSON.parse(readFileSync(path.resolve(__dirname, '../../data/corridors.json'), 'utf8')) as Catalog;
/** Every (country, operator) the shipped routing table gives pawaPay. */
const corridors = catalog.payoutRoutes.filter((r) => r.providers.includes('pawapay')).flatMap((r) => (r.codes ?? []).map((code) => [r.country, code] as const));

/**
 * Every corridor the routing table gives pawaPay is payable live with pawaPay alone configured:
 * quoted (a rate for its currency), routed, mapped to a pawaPay provider code and settled
 * (docs/providers.md § pawaPay payouts).
 */
describe('pawaPay pays every corridor routed to it', () => {
  let sim: PawapaySimulator;
  let service: TestService;
  let admin: string;
  let apiKey: string;
  beforeAll(async () => {
    const port = await freePort();
    const secret = 'pp_secret_0123456789abcdefghijklmnopqrstuv';
    sim = await startPawapaySimulator({ processingDelayMs: 20, callbackUrl: `http://127.0.0.1:${port}/callbacks/pawapay/${secret}` });
    service = await startTestService({
      PAWAPAY_BASE_URL: sim.url, PAWAPAY_API_TOKEN: sim.apiToken, PAWAPAY_ENVIRONMENT: 'sandbox', PAWAPAY_CALLBACK_SECRET: secret,
      PAWAPAY_CALLBACK_ALLOWED_IPS: '127.0.0.1,::1', PAWAPAY_POLL_INTERVAL_MS: '400',
    }, {}, { port });
    admin = await service.newAdminKey();
    ({ apiKey } = await liveTenant(service, admin));
  });
  afterAll(async () => {
    await service.close();
    await sim.close();
  });

  it('lists the corridors the issue asked for', () => {
    expect(corridors).toEqual(expect.arrayContaining([
      ['UG', 'MTN'], ['UG', 'AIRTEL'], ['GH', 'MTN'], ['TZ', 'AIRTEL'], ['TZ', 'TIGO'], ['ZM', 'AIRTEL'], ['CI', 'ORANGE'], ['CI', 'WAVE'],
      ['SN', 'ORANGE'], ['SN', 'WAVE'], ['BF', 'ORANGE'], ['BF', 'MOOV'], ['BJ', 'MOOV'], ['CM', 'ORANGE'],
      // MTN where MTN MoMo is first: pawaPay is the second provider (docs/providers.md § pawaPay payouts).
      ['ZM', 'MTN'], ['CI', 'MTN'], ['BJ', 'MTN'], ['CM', 'MTN'],
    ]));
  });

  it.each(corridors)('%s %s: a live money-out settles through pawaPay', async (country, code) => {
    const c = catalog.countries[country]!;
    const id = await moneyOut(service, apiKey, moneyOutBody({
      country, destinationCurrency: c.currency, paymentCode: code, fiatAmount: Number(c.methods.MOMO!.min) * 10,
      accountNumber: `${c.dialCode}7${'1234567'.slice(0, 11 - c.dialCode.length)}00`,
    }));
    expect(await settled(service, admin, id, 'succeeded')).toMatchObject({ provider: 'pawapay' });
  });
});
