import { mpesaCallbackUrl, parseMpesaCallback } from '../../src/adapters/providers/mpesa/mpesa-callbacks';
import { MpesaConfigError, parseMpesaConfig } from '../../src/adapters/providers/mpesa/mpesa-config';
import { loadConfig } from '../../src/app/config';
import { startMpesaSimulator, type MpesaSimulator } from '../../simulators/mpesa/mpesa-simulator';
import { certificateFile, configOf, keKesPayment, mpesaEnv, PATH_SECRET } from './mpesa-harness';

// M-Pesa configuration (all or none) and the verification of Daraja's unsigned callbacks
// (docs/decisions.md § Webhooks; § Personal data and secrets).
let sim: MpesaSimulator;
let env: Record<string, string>;

beforeAll(async () => {
  sim = await startMpesaSimulator({ port: 0 });
  env = mpesaEnv(sim, 'https://pay.example.com/callbacks/mpesa', certificateFile(sim));
});
afterAll(() => sim.close());

describe('configuration', () => {
  it('none set: the provider is off; all set: a config', () => {
    expect(parseMpesaConfig({ PORT: '3000' })).toBeUndefined();
    expect(configOf(env)).toMatchObject({ baseUrl: sim.url, b2bShortcode: env.MPESA_SHORTCODE, b2cCommandId: 'BusinessPayment' });
  });

  it('partial credentials stop the start, naming what is missing and no secret', () => {
    const partial = { MPESA_CONSUMER_KEY: 'key-value-123', MPESA_CONSUMER_SECRET: 'secret-value-456', MPESA_BASE_URL: sim.url };
    expect(() => parseMpesaConfig(partial)).toThrow(MpesaConfigError);
    const message = (() => {
      try {
        parseMpesaConfig(partial);
        return '';
      } catch (error) {
        return (error as Error).message;
      }
    })();
    for (const name of ['MPESA_SHORTCODE', 'MPESA_INITIATOR_NAME', 'MPESA_INITIATOR_PASSWORD', 'MPESA_CERTIFICATE_PATH', 'MPESA_CALLBACK_BASE_URL', 'MPESA_CALLBACK_PATH_SECRET']) {
      expect(message).toContain(name);
    }
    expect(message).not.toContain('MPESA_CONSUMER_KEY');
    expect(message).not.toMatch(/key-value-123|secret-value-456/);
  });

  it('an invalid secret is named without its value; an unreadable certificate and an empty allow-list in production are errors', () => {
    expect(() => parseMpesaConfig({ ...env, MPESA_CALLBACK_PATH_SECRET: 'short' })).toThrow(/MPESA_CALLBACK_PATH_SECRET is invalid$/);
    expect(() => parseMpesaConfig({ ...env, MPESA_CERTIFICATE_PATH: '/nonexistent/cert.cer' })).toThrow(/MPESA_CERTIFICATE_PATH cannot be read/);
    expect(() => parseMpesaConfig({ ...env, MPESA_CALLBACK_ALLOWED_IPS: 'not-an-ip' })).toThrow(/MPESA_CALLBACK_ALLOWED_IPS/);
    expect(() => parseMpesaConfig({ ...env, NODE_ENV: 'production', MPESA_CALLBACK_ALLOWED_IPS: '' })).toThrow(/production/);
  });

  it('production: the callback URL must be https, and the path secret must pass the API keys\' strength rule', () => {
    const strong = 'q7RzK2mWx9BfT4nLv3HsD8jPc6YgE1aU';
    const production = { ...env, NODE_ENV: 'production', MPESA_CALLBACK_PATH_SECRET: strong };
    expect(parseMpesaConfig(production)).toMatchObject({ callbackBaseUrl: 'https://pay.example.com/callbacks/mpesa' });
    expect(() => parseMpesaConfig({ ...production, MPESA_CALLBACK_BASE_URL: 'http://pay.example.com/callbacks/mpesa' }))
      .toThrow(/MPESA_CALLBACK_BASE_URL must be https in production/);
    // Outside production an http callback (a local simulator) is fine.
    expect(parseMpesaConfig({ ...env, MPESA_CALLBACK_BASE_URL: 'http://127.0.0.1:3000/callbacks/mpesa' })).toBeDefined();

    expect(loadConfig(production).payoutProviders.mpesa?.callbackPathSecret).toBe(strong);
    // The harness's secret is valid in shape (32-128 of A-Za-z0-9_-) but a run of the alphabet.
    const weak = () => loadConfig({ ...production, MPESA_CALLBACK_PATH_SECRET: PATH_SECRET });
    expect(weak).toThrow(/MPESA_CALLBACK_PATH_SECRET is too weak: it is estimated at \d+ bits, at least 128 are required/);
    expect(weak).not.toThrow(new RegExp(PATH_SECRET));
    expect(() => loadConfig({ ...production, MPESA_CALLBACK_PATH_SECRET: `${'x9K-'.repeat(10)}` })).toThrow(/MPESA_CALLBACK_PATH_SECRET is too weak/);
    expect(loadConfig({ ...env, NODE_ENV: 'development' }).payoutProviders.mpesa?.callbackPathSecret).toBe(PATH_SECRET);
  });
});

describe('callback verification', () => {
  const paymentId = keKesPayment().id;
  const result = (ocid: string) => Buffer.from(JSON.stringify({
    Result: { ResultType: 0, ResultCode: 0, ResultDesc: 'ok', OriginatorConversationID: ocid, ConversationID: 'AG_1', TransactionID: 'SG632NMUAB' },
  }));
  const call = (over: Partial<Parameters<typeof parseMpesaCallback>[0]> = {}, extraEnv: Record<string, string> = {}) => parseMpesaCallback(
    { headers: {}, rawBody: result(paymentId), remoteAddress: '127.0.0.1', pathSecret: PATH_SECRET, kind: 'result', paymentId, ...over },
    configOf({ ...env, ...extraEnv }),
  );

  it('the URLs given to Daraja carry the secret, the kind and the payment id', () => {
    expect(mpesaCallbackUrl(configOf(env), 'result', paymentId)).toBe(`https://pay.example.com/callbacks/mpesa/${PATH_SECRET}/result/${paymentId}`);
  });

  it('accepts the right secret from an allowed address (IPv4 or IPv4-mapped IPv6)', () => {
    expect(call()).toMatchObject({ ok: true, report: { outcome: { kind: 'succeeded', providerRef: 'SG632NMUAB' } }, ack: { status: 200 } });
    expect(call({ remoteAddress: '::ffff:127.0.0.1' }).ok).toBe(true);
  });

  it('refuses a wrong or missing path secret', () => {
    expect(call({ pathSecret: `${PATH_SECRET}x` })).toMatchObject({ ok: false, refusal: 'bad_secret', ack: { status: 404 } });
    expect(call({ pathSecret: undefined })).toMatchObject({ ok: false, refusal: 'bad_secret' });
  });

  it('refuses an address outside the allow-list; an empty list (development) lets any through', () => {
    expect(call({ remoteAddress: '10.1.2.3' })).toMatchObject({ ok: false, refusal: 'unknown_source', ack: { status: 403 } });
    expect(call({ remoteAddress: '196.201.214.200' }, { MPESA_CALLBACK_ALLOWED_IPS: '196.201.214.0/24' }).ok).toBe(true);
    expect(call({ remoteAddress: '10.1.2.3' }, { MPESA_CALLBACK_ALLOWED_IPS: '' }).ok).toBe(true);
  });

  it('refuses a body that is not a Daraja result, an unknown kind, and a result about another payment', () => {
    expect(call({ rawBody: Buffer.from('{"Result":{"ResultCode":0}}') })).toMatchObject({ ok: false, refusal: 'unparseable', ack: { status: 400 } });
    expect(call({ rawBody: Buffer.from('not json') })).toMatchObject({ ok: false, refusal: 'unparseable' });
    expect(call({ kind: 'refund' })).toMatchObject({ ok: false, refusal: 'unparseable' });
    expect(call({ rawBody: result(keKesPayment().id) })).toMatchObject({ ok: false, refusal: 'unparseable' });
  });

  it('reads a result strictly: 15 (duplicate request) and ResultType 1 settle nothing; a single-object ResultParameter parses', () => {
    const body = (r: object) => Buffer.from(JSON.stringify({ Result: { OriginatorConversationID: paymentId, ConversationID: 'AG_2', ...r } }));
    expect(call({ rawBody: body({ ResultCode: '15', ResultDesc: 'Duplicate Detected' }) })).toMatchObject({ report: { outcome: { kind: 'pending' } } });
    expect(call({ rawBody: body({ ResultType: 1, ResultCode: 0 }) })).toMatchObject({ report: { outcome: { kind: 'pending' } } });
    expect(call({ rawBody: body({ ResultCode: 1, ResultParameters: { ResultParameter: { Key: 'BOCompletedTime', Value: 20200120164825 } } }) }))
      .toMatchObject({ report: { outcome: { kind: 'failed', reason: 'M-Pesa result 1: The balance is insufficient for the transaction' } } });
  });

  it('reads a Transaction Status result by TransactionStatus; an unanswered query or an undocumented word stays pending', () => {
    const status = (code: string | number, word?: string) => Buffer.from(JSON.stringify({
      Result: {
        ResultCode: code, OriginatorConversationID: '3213-416199-2', ConversationID: 'AG_3',
        ResultParameters: { ResultParameter: [{ Key: 'OriginatorConversationID', Value: paymentId }, ...(word ? [{ Key: 'TransactionStatus', Value: word }] : []), { Key: 'ReceiptNo', Value: 'MBN31H462N' }] },
      },
    }));
    expect(call({ kind: 'status', rawBody: status(0, 'Completed') })).toMatchObject({ report: { outcome: { kind: 'succeeded', providerRef: 'MBN31H462N' } } });
    expect(call({ kind: 'status', rawBody: status(0, 'Declined') })).toMatchObject({ report: { outcome: { kind: 'failed' } } });
    expect(call({ kind: 'status', rawBody: status(0, 'Authorized') })).toMatchObject({ report: { outcome: { kind: 'pending' } } });
    expect(call({ kind: 'status', rawBody: status(0, 'Reversed') })).toMatchObject({ report: { outcome: { kind: 'pending' } } });
    expect(call({ kind: 'status', rawBody: status('SFC_IC0003', 'Completed') })).toMatchObject({ report: { outcome: { kind: 'pending' } } });
  });

  it('a QueueTimeOutURL post of any shape (Daraja documents none) asks for status', () => {
    expect(call({ kind: 'timeout', rawBody: Buffer.from('') })).toMatchObject({ ok: true, report: { outcome: { kind: 'pending', afterMs: 0 } } });
  });
});
