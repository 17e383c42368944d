import path from 'node:path';
import { loadConfig, ConfigError } from '../../src/app/config';
import { loggedUrl } from '../../src/adapters/http/request-log';
import { loadCatalog } from '../../src/adapters/providers/catalog-file';
import { CatalogRouting } from '../../src/adapters/providers/catalog-routing';
import type { KycProvider } from '../../src/core/customers/customer';
import type { PayoutProvider } from '../../src/core/payments/payout-provider';
import type { PayoutCorridor } from '../../src/core/routing/provider-routing';

const catalog = loadCatalog(path.resolve(__dirname, '../../data/corridors.json'));
const named = (name: string): PayoutProvider => ({
  name,
  submit: async () => ({ kind: 'retry', afterMs: 1 }),
  status: async () => ({ kind: 'not_found' }),
});
const sandbox = { payouts: named('sandbox'), kyc: { check: async () => ({ kind: 'pending', afterMs: 1 }) } as unknown as KycProvider };
const corridor = (country: string, paymentMethod: string, paymentCode: string) => ({ country, paymentMethod, paymentCode }) as PayoutCorridor;
const names = (routed: ReturnType<CatalogRouting['payoutProvidersFor']>) =>
  routed.kind === 'providers' ? routed.providers.map((p) => p.name) : routed.reason;
/** What routing answers without the providers: its kind, and how soon to look again when it says. */
const refusal = (routed: ReturnType<CatalogRouting['payoutProvidersFor']>) =>
  routed.kind === 'providers' ? routed.kind : { kind: routed.kind, ...(routed.kind === 'unavailable' ? { retryAfterMs: routed.retryAfterMs } : {}) };

describe('payout routing by the catalog table', () => {
  const all = [named('mpesa'), named('mtn_momo'), named('paystack')];

  it('sandbox tenants always get the sandbox, live tenants never do', () => {
    const routing = new CatalogRouting(catalog, sandbox, all);
    for (const c of [corridor('KE', 'MOMO', 'MPESA'), corridor('NG', 'BANK', '058'), corridor('TZ', 'MOMO', 'TIGO')]) {
      expect(names(routing.payoutProvidersFor('sandbox', c))).toEqual(['sandbox']);
      expect(names(routing.payoutProvidersFor('live', c))).not.toContain('sandbox');
    }
    expect(routing.payoutProviderNamed('live', 'sandbox')).toBeUndefined();
    expect(routing.payoutProviderNamed('sandbox', 'mpesa')).toBeUndefined();
    expect(routing.payoutProviderNamed('live', 'paystack')?.name).toBe('paystack');
  });

  it('maps (country, method, operator or bank code) to the providers the table lists', () => {
    const routing = new CatalogRouting(catalog, sandbox, all);
    expect(names(routing.payoutProvidersFor('live', corridor('KE', 'MOMO', 'MPESA')))).toEqual(['mpesa']);
    expect(names(routing.payoutProvidersFor('live', corridor('KE', 'PAYBILL', 'MPESA')))).toEqual(['mpesa']);
    expect(names(routing.payoutProvidersFor('live', corridor('UG', 'MOMO', 'MTN')))).toEqual(['mtn_momo']);
    expect(names(routing.payoutProvidersFor('live', corridor('NG', 'BANK', '058')))).toEqual(['paystack']);
    // No row for the operator: not served (permanent), with a reason naming the corridor.
    expect(names(routing.payoutProvidersFor('live', corridor('KE', 'MOMO', 'AIRTEL')))).toMatch(/no live payout provider is routed for MOMO AIRTEL in KE/);
    expect(refusal(routing.payoutProvidersFor('live', corridor('KE', 'MOMO', 'AIRTEL')))).toEqual({ kind: 'not_served' });
  });

  it('a routed provider that is not configured, or not healthy, is skipped; none configured is not_served, none healthy unavailable', () => {
    const table = { ...catalog, payoutRoutes: [{ country: 'NG', method: 'BANK', providers: ['paystack', 'backup'] }] } as typeof catalog;
    const route = corridor('NG', 'BANK', '058');
    expect(names(new CatalogRouting(table, sandbox, [named('mpesa')]).payoutProvidersFor('live', route))).toMatch(/is configured/);
    expect(refusal(new CatalogRouting(table, sandbox, [named('mpesa')]).payoutProvidersFor('live', route))).toEqual({ kind: 'not_served' });
    expect(names(new CatalogRouting(table, sandbox, [named('backup'), named('paystack')]).payoutProvidersFor('live', route))).toEqual(['paystack', 'backup']);
    const open = new Set(['paystack']);
    const routing = new CatalogRouting(table, sandbox, [named('paystack'), named('backup')], (name) => !open.has(name), 45_000);
    expect(names(routing.payoutProvidersFor('live', route))).toEqual(['backup']);
    open.add('backup');
    expect(names(routing.payoutProvidersFor('live', route))).toMatch(/failing/);
    // Configured but all refusing calls: temporary, with the breaker's wait.
    expect(refusal(routing.payoutProvidersFor('live', route))).toEqual({ kind: 'unavailable', retryAfterMs: 45_000 });
    // Status queries still reach a provider whose breaker is open.
    expect(routing.payoutProviderNamed('live', 'paystack')?.name).toBe('paystack');
  });

  it('a live route carries its row\'s strategy (success_rate unless the row says ordered) and every configured candidate with its health', () => {
    const table = {
      ...catalog,
      payoutRoutes: [
        { country: 'NG', method: 'BANK', providers: ['paystack', 'missing', 'backup'] },
        { country: 'KE', method: 'BANK', providers: ['paystack', 'backup'], strategy: 'ordered' },
      ],
    } as typeof catalog;
    const routing = new CatalogRouting(table, sandbox, [named('paystack'), named('backup')], (name) => name !== 'paystack');
    expect(routing.payoutProvidersFor('live', corridor('NG', 'BANK', '058'))).toMatchObject({
      kind: 'providers', strategy: 'success_rate', candidates: [{ name: 'paystack', healthy: false }, { name: 'backup', healthy: true }],
    });
    expect(routing.payoutProvidersFor('live', corridor('KE', 'BANK', '01'))).toMatchObject({ strategy: 'ordered' });
    // The sandbox route is never ranked: no strategy, no candidates.
    expect(routing.payoutProvidersFor('sandbox', corridor('NG', 'BANK', '058'))).not.toHaveProperty('candidates');
  });
});

describe('provider configuration at start', () => {
  const base = { WEBHOOK_SECRET_KEY: Buffer.alloc(32, 7).toString('base64') };

  it('routing settings have defaults and bounds: a hedged share over 50 % stops the start', () => {
    expect(loadConfig(base)).toMatchObject({ ROUTING_WINDOW_MS: 900_000, ROUTING_MIN_SAMPLES: 20, ROUTING_HEDGE_PERCENT: 5, ROUTING_BAND_POINTS: 2, ROUTING_NEUTRAL_SUCCESS_PERCENT: 90 });
    expect(() => loadConfig({ ...base, ROUTING_HEDGE_PERCENT: '60' })).toThrow(/ROUTING_HEDGE_PERCENT/);
    expect(() => loadConfig({ ...base, ROUTING_MIN_SAMPLES: '0' })).toThrow(/ROUTING_MIN_SAMPLES/);
  });

  it('no provider variables: no live provider; a complete one is on', () => {
    expect(loadConfig(base).payoutProviders).toEqual({});
    const config = loadConfig({ ...base, PAYSTACK_SECRET_KEY: 'sk_test_abc123', PAYSTACK_BASE_URL: 'http://127.0.0.1:1' });
    expect(Object.keys(config.payoutProviders)).toEqual(['paystack']);
  });

  it('partial credentials stop the start with every problem named and no secret value', () => {
    const secret = 'very-secret-consumer-value';
    let message = '';
    try {
      loadConfig({ ...base, MPESA_CONSUMER_SECRET: secret, MTN_MOMO_API_KEY: 'another-secret-value', PAYSTACK_BASE_URL: 'http://127.0.0.1:1' });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      message = (error as Error).message;
    }
    expect(message).toMatch(/M-Pesa is partly configured: set MPESA_BASE_URL/);
    expect(message).toMatch(/MTN MoMo is partly configured: missing MTN_MOMO_BASE_URL/);
    expect(message).toMatch(/Paystack is partly configured: set PAYSTACK_SECRET_KEY/);
    expect(message).not.toContain(secret);
    expect(message).not.toContain('another-secret-value');
  });
});

describe('callback URLs in the request log', () => {
  it('carry no path secret', () => {
    const secret = 'cb_0123456789abcdefghijklmnopqrstuvwxyz';
    expect(loggedUrl(`/callbacks/mpesa/${secret}/result/pay_01JD4ZQ8W0Y8M2V6N3C5B7K9TQ`)).toBe('/callbacks/mpesa/[redacted]/result/pay_01JD4ZQ8W0Y8M2V6N3C5B7K9TQ');
    expect(loggedUrl(`/callbacks/mtn-momo/${secret}?x=1`)).toBe('/callbacks/mtn-momo/[redacted]?x=1');
    expect(loggedUrl(`/callbacks/smile-id/${secret}`)).toBe('/callbacks/smile-id/[redacted]');
    expect(loggedUrl('/callbacks/paystack')).toBe('/callbacks/paystack');
  });
});
