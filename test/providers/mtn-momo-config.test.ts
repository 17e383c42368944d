import { parseMtnMomoCallback } from '../../src/adapters/providers/mtn-momo/mtn-momo-callbacks';
import { MtnMomoConfigError, parseMtnMomoConfig } from '../../src/adapters/providers/mtn-momo/mtn-momo-config';
import { transferReferenceOf } from '../../src/adapters/providers/mtn-momo/mtn-momo-wire';
import { CALLBACK_SECRET } from './support/mtn-momo-harness';
import { loadConfig } from '../../src/app/config';

const complete = {
  MTN_MOMO_BASE_URL: 'https://proxy.momoapi.mtn.com',
  MTN_MOMO_SUBSCRIPTION_KEY: 'sub-key-value-123',
  MTN_MOMO_API_USER: '7c1e3b4a-2f5d-4e8a-9b6c-1d2e3f4a5b6c',
  MTN_MOMO_API_KEY: 'api-key-value-456',
  MTN_MOMO_TARGET_ENVIRONMENT: 'mtnuganda',
  MTN_MOMO_CALLBACK_BASE_URL: 'https://pay.example.com/callbacks/mtn_momo',
  MTN_MOMO_CALLBACK_SECRET: CALLBACK_SECRET,
  MTN_MOMO_CALLBACK_ALLOWED_IPS: '196.201.214.0/24, 10.1.2.3',
};

function refusal(env: Record<string, string>): string {
  try {
    parseMtnMomoConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(MtnMomoConfigError);
    return (error as Error).message;
  }
  throw new Error('configuration was accepted');
}

describe('MTN MoMo configuration', () => {
  it('is off when no MTN_MOMO_ variable is set, and parsed with defaults when complete', () => {
    expect(parseMtnMomoConfig({ PORT: '3000' })).toBeUndefined();
    expect(parseMtnMomoConfig(complete)).toMatchObject({
      targetEnvironment: 'mtnuganda', sandboxCurrency: undefined, callbackAllowedIps: ['196.201.214.0/24', '10.1.2.3'],
      connectTimeoutMs: 5000, responseTimeoutMs: 20000, pollIntervalMs: 300000,
    });
  });

  it('partial credentials stop the start, naming the missing variables and no secret', () => {
    const message = refusal({ MTN_MOMO_API_KEY: 'api-key-value-456', MTN_MOMO_SUBSCRIPTION_KEY: 'sub-key-value-123' });
    for (const name of ['MTN_MOMO_BASE_URL', 'MTN_MOMO_API_USER', 'MTN_MOMO_TARGET_ENVIRONMENT', 'MTN_MOMO_CALLBACK_BASE_URL', 'MTN_MOMO_CALLBACK_SECRET']) {
      expect(message).toContain(name);
    }
    expect(message).not.toContain('MTN_MOMO_API_KEY');
    expect(message).not.toMatch(/api-key-value|sub-key-value/);
  });

  it('the sandbox currency is configured, never assumed; production needs https callbacks and an allow-list', () => {
    expect(refusal({ ...complete, MTN_MOMO_TARGET_ENVIRONMENT: 'sandbox' })).toContain('MTN_MOMO_SANDBOX_CURRENCY=EUR is required');
    expect(refusal({ ...complete, MTN_MOMO_SANDBOX_CURRENCY: 'EUR' })).toContain('only allowed with the sandbox');
    expect(refusal({ ...complete, MTN_MOMO_TARGET_ENVIRONMENT: 'sandbox', MTN_MOMO_SANDBOX_CURRENCY: 'UGX' })).toContain('MTN_MOMO_SANDBOX_CURRENCY');
    expect(refusal({ ...complete, MTN_MOMO_CALLBACK_BASE_URL: 'http://pay.example.com/cb' })).toContain('must be https');
    expect(refusal({ ...complete, MTN_MOMO_CALLBACK_ALLOWED_IPS: '' })).toContain('MTN_MOMO_CALLBACK_ALLOWED_IPS is required');
    expect(refusal({ ...complete, MTN_MOMO_CALLBACK_ALLOWED_IPS: 'not-an-ip' })).toContain('MTN_MOMO_CALLBACK_ALLOWED_IPS');
    expect(refusal({ ...complete, MTN_MOMO_CALLBACK_SECRET: 'short' })).toContain('MTN_MOMO_CALLBACK_SECRET');
    expect(refusal({ ...complete, MTN_MOMO_TARGET_ENVIRONMENT: 'mtnkenya' })).toContain('MTN_MOMO_TARGET_ENVIRONMENT');
    expect(parseMtnMomoConfig({ ...complete, MTN_MOMO_TARGET_ENVIRONMENT: 'sandbox', MTN_MOMO_SANDBOX_CURRENCY: 'EUR', MTN_MOMO_CALLBACK_ALLOWED_IPS: '' }))
      .toMatchObject({ sandboxCurrency: 'EUR', callbackAllowedIps: [] });
  });
});

describe('MTN MoMo configuration in production', () => {
  it('the callback path secret must pass the API keys\' strength rule', () => {
    const strong = 'Vb8yR3kQ_t1Zp6WmN0xJ-c5HdL2gF9sA';
    expect(loadConfig({ ...complete, NODE_ENV: 'production', MTN_MOMO_CALLBACK_SECRET: strong }).payoutProviders.mtnMomo?.callbackSecret).toBe(strong);
    // Valid in shape, guessable all the same: a prefix and a run of the alphabet.
    const weak = () => loadConfig({ ...complete, NODE_ENV: 'production' });
    expect(weak).toThrow(/MTN_MOMO_CALLBACK_SECRET is too weak: it is estimated at \d+ bits, at least 128 are required/);
    expect(weak).not.toThrow(new RegExp(CALLBACK_SECRET));
    expect(loadConfig({ ...complete, NODE_ENV: 'development' }).payoutProviders.mtnMomo?.callbackSecret).toBe(CALLBACK_SECRET);
  });
});

describe('MTN MoMo callback verification', () => {
  const config = parseMtnMomoConfig(complete)!;
  const paymentId = 'pay_01JD5Z8Q6V3W2X1Y0Z9A8B7C6D';
  const body = (over: Record<string, unknown> = {}) => Buffer.from(JSON.stringify({
    amount: '15000', currency: 'UGX', financialTransactionId: '981569077', externalId: paymentId,
    payee: { partyIdType: 'MSISDN', partyId: '256771234500' }, payerMessage: 'm', payeeNote: 'n', status: 'SUCCESSFUL', ...over,
  }));
  const parse = (over: Partial<Parameters<typeof parseMtnMomoCallback>[0]> = {}, cfg = config) =>
    parseMtnMomoCallback({ headers: {}, rawBody: body(), remoteAddress: '196.201.214.7', pathSecret: CALLBACK_SECRET, ...over }, cfg);

  it('accepts the right secret from an allowed address (IPv4-mapped too) and maps the status strictly', () => {
    expect(parse()).toEqual({
      ok: true, ack: { status: 200, body: '' },
      report: { provider: 'mtn_momo', paymentId, outcome: { kind: 'succeeded', providerRef: transferReferenceOf(paymentId) }, providerEventId: '981569077' },
    });
    expect(parse({ remoteAddress: '::ffff:10.1.2.3' }).ok).toBe(true);
    expect(parse({ rawBody: body({ status: 'REJECTED' }) })).toMatchObject({ ok: true, report: { outcome: { kind: 'pending' } } });
    expect(parse({ rawBody: body({ status: 'FAILED', reason: { code: 'PAYEE_NOT_ALLOWED_TO_RECEIVE' } }) }))
      .toMatchObject({ ok: true, report: { outcome: { kind: 'failed', reason: expect.stringContaining('PAYEE_NOT_ALLOWED_TO_RECEIVE') } } });
  });

  it('refuses a wrong or missing path secret, an address outside the allow-list, and an unreadable body', () => {
    expect(parse({ pathSecret: `${CALLBACK_SECRET}x` })).toMatchObject({ ok: false, refusal: 'bad_path_secret', ack: { status: 404 } });
    expect(parse({ pathSecret: undefined })).toMatchObject({ ok: false, refusal: 'bad_path_secret' });
    expect(parse({ remoteAddress: '196.201.215.7' })).toMatchObject({ ok: false, refusal: 'unknown_source', ack: { status: 403 } });
    expect(parse({ remoteAddress: undefined })).toMatchObject({ ok: false, refusal: 'unknown_source' });
    expect(parse({ rawBody: Buffer.from('{not json') })).toMatchObject({ ok: false, refusal: 'unparseable', ack: { status: 400 } });
    expect(parse({ rawBody: body({ status: undefined }) })).toMatchObject({ ok: false, refusal: 'unparseable' });
    expect(parse({ rawBody: body({ externalId: 'someone-else' }) })).toMatchObject({ ok: false, refusal: 'unparseable' });
  });

  it('an empty allow-list (sandbox) accepts any source but still needs the secret', () => {
    const open = { ...config, callbackAllowedIps: [] };
    expect(parse({ remoteAddress: '203.0.113.9' }, open).ok).toBe(true);
    expect(parse({ remoteAddress: '203.0.113.9', pathSecret: 'nope' }, open).ok).toBe(false);
  });
});
