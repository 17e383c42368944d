import { startMtnMomoSimulator } from '../../simulators/mtn-momo/mtn-momo-simulator';
import { startPawapaySimulator } from '../../simulators/pawapay/pawapay-simulator';
import { transferReferenceOf } from '../../src/adapters/providers/mtn-momo/mtn-momo-wire';
import { payoutIdOf } from '../../src/adapters/providers/pawapay/pawapay-wire';
import { liveTenant, moneyOut } from '../support/live-tenant';
import { catalogWithRoutes, settled } from '../support/provider-e2e';
import { eventually, freePort, moneyOutBody, startTestService } from '../support/test-service';

const SECRET = 'pp_secret_0123456789abcdefghijklmnopqrstuv';
const ugMtn = (last2: string) => moneyOutBody({
  country: 'UG', destinationCurrency: 'UGX', paymentCode: 'MTN', fiatAmount: '50000', accountNumber: `2567712345${last2}`,
});

/**
 * UG MTN routed to MTN MoMo then pawaPay (data/corridors.json), both real adapters against their
 * simulators over HTTP (docs/decisions.md § Payout providers: routing and failover).
 */
async function bothRails(mtnOptions: Parameters<typeof startMtnMomoSimulator>[0], env: Record<string, string> = {}) {
  const port = await freePort();
  const mtn = await startMtnMomoSimulator({ processingDelayMs: 30, callbackDelayMs: 60, ...mtnOptions });
  const pawapay = await startPawapaySimulator({ processingDelayMs: 30, callbackUrl: `http://127.0.0.1:${port}/callbacks/pawapay/${SECRET}` });
  const service = await startTestService({
    MTN_MOMO_BASE_URL: mtn.url, MTN_MOMO_SUBSCRIPTION_KEY: mtn.credentials.subscriptionKey, MTN_MOMO_API_USER: mtn.credentials.apiUser,
    MTN_MOMO_API_KEY: mtn.credentials.apiKey, MTN_MOMO_TARGET_ENVIRONMENT: 'sandbox', MTN_MOMO_SANDBOX_CURRENCY: 'EUR',
    MTN_MOMO_CALLBACK_BASE_URL: `http://127.0.0.1:${port}/callbacks/mtn-momo`, MTN_MOMO_CALLBACK_SECRET: 'cb_secret_0123456789abcdefghijklmnopqrstuv',
    MTN_MOMO_CALLBACK_ALLOWED_IPS: '127.0.0.1', MTN_MOMO_RESPONSE_TIMEOUT_MS: '800', MTN_MOMO_POLL_INTERVAL_MS: '400',
    PAWAPAY_BASE_URL: pawapay.url, PAWAPAY_API_TOKEN: pawapay.apiToken, PAWAPAY_ENVIRONMENT: 'sandbox', PAWAPAY_CALLBACK_SECRET: SECRET,
    PAWAPAY_CALLBACK_ALLOWED_IPS: '127.0.0.1,::1', PAWAPAY_POLL_INTERVAL_MS: '400',
    PROVIDER_BREAKER_FAILURES: '2', PROVIDER_BREAKER_HALF_OPEN_MS: '600000', ...env,
  }, {}, { port });
  const admin = await service.newAdminKey();
  const { apiKey } = await liveTenant(service, admin);
  return {
    mtn, pawapay, service, admin, apiKey,
    close: async () => {
      await service.close();
      await mtn.close();
      await pawapay.close();
    },
  };
}

/**
 * UG MTN is routed to MTN MoMo, then pawaPay (data/corridors.json); both real adapters run against
 * their simulators over HTTP (docs/decisions.md § Payout providers: routing and failover).
 */
describe('UG MTN across MTN MoMo and pawaPay', () => {
  it('a transfer whose outcome is unknown at MTN is looked up there and never sent to pawaPay', async () => {
    const rails = await bothRails({});
    try {
      // Digits 40: MTN records the transfer and never answers.
      const id = await moneyOut(rails.service, rails.apiKey, ugMtn('40'));
      expect(await settled(rails.service, rails.admin, id, 'succeeded', 20_000)).toMatchObject({ provider: 'mtn_momo', providerRef: transferReferenceOf(id) });
      expect(rails.pawapay.submissions(payoutIdOf(id))).toBe(0);
    } finally {
      await rails.close();
    }
  }, 60_000);

  it('when MTN refuses our setup, each payout goes to pawaPay; MTN holds nothing', async () => {
    // MTN answers 500 INVALID_CALLBACK_URL_HOST to every transfer: our configuration there, so `retry` elsewhere.
    const rails = await bothRails({ providerCallbackHost: 'callbacks.example' });
    try {
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push(await moneyOut(rails.service, rails.apiKey, ugMtn('00')));
      for (const id of ids) {
        expect(await settled(rails.service, rails.admin, id, 'succeeded')).toMatchObject({ provider: 'pawapay', providerRef: payoutIdOf(id) });
        expect(rails.pawapay.submissions(payoutIdOf(id))).toBe(1);
      }
      expect(rails.mtn.transfers()).toEqual([]);
    } finally {
      await rails.close();
    }
  }, 60_000);

  it('MTN answering 500: the payout stays with MTN (looked up there, never sent to pawaPay); once the breaker opens the next payout goes to pawaPay', async () => {
    // The table's order (not figures or hedges) decides here, so the first payout goes to MTN.
    const ordered = catalogWithRoutes((routes) => {
      const row = routes.find((r) => r.country === 'UG' && r.codes?.includes('MTN'))!;
      row.strategy = 'ordered';
    });
    const rails = await bothRails({}, { CATALOG_PATH: ordered });
    try {
      // MTN answers 500 to every transfer without recording it: `unknown`; its status query then
      // answers 404 (not there), so the payout is sent to MTN again (same reference), 500 again:
      // two failing submissions in a row open MTN's breaker (PROVIDER_BREAKER_FAILURES=2).
      const fault = await fetch(`${rails.mtn.url}/__simulator/faults`, { method: 'POST', body: JSON.stringify({ submit: 'error_500' }) });
      expect(fault.status).toBe(200);
      const first = await moneyOut(rails.service, rails.apiKey, ugMtn('00'));
      await eventually(async () => {
        const text = (await rails.service.call('GET', '/metrics', { apiKey: rails.admin })).text;
        return /payout_provider_circuit_open\{provider="mtn_momo"\} 1/.test(text) ? true : undefined;
      }, 20_000);

      const next = await moneyOut(rails.service, rails.apiKey, ugMtn('00'));
      const view = await settled(rails.service, rails.admin, next, 'succeeded', 20_000);
      expect(view).toMatchObject({ provider: 'pawapay', providerRef: payoutIdOf(next) });
      expect(view.routing.candidates.find((c: { name: string }) => c.name === 'mtn_momo')).toMatchObject({ healthy: false });
      expect(rails.pawapay.submissions(payoutIdOf(next))).toBe(1);

      // The first payout's outcome at MTN is still to be learnt there: it never reaches pawaPay.
      const firstView = (await rails.service.call('GET', `/v1/admin/payments/${first}`, { apiKey: rails.admin })).body;
      expect([firstView.status, firstView.provider]).toEqual(['initiated', 'mtn_momo']);
      expect(rails.pawapay.submissions(payoutIdOf(first))).toBe(0);
      expect(rails.mtn.transfers()).toEqual([]);
    } finally {
      await rails.close();
    }
  }, 60_000);
});
