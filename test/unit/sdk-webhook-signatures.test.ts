import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { signatureHeaders } from '../../src/adapters/providers/webhook-transport';
import {
  DEFAULT_WEBHOOK_TOLERANCE_SECONDS, verifyServiceSignature, verifyStandardWebhookSignature, verifyWebhook, webhookIdOf, WebhookSignatureError,
  type WebhookHeaders, type WebhookTimeOptions,
} from '../../sdk/src';

/** The SDK's checks against the service's own signer (docs/decisions.md § Webhooks). */
const secret = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
const body = JSON.stringify({
  id: '1d4f2c8e-9b7a-4e31-8f6c-2a5b7d9e0c13', type: 'payment.succeeded', timestamp: '2026-11-23T09:41:07.512Z',
  data: { id: 'pay_01JD8X3T0Q6W7Y8Z9A0B1C2D3E', status: 'succeeded', fiatAmount: '1500.00' },
});
const deliveryId = '7d3e1a2b-5c6d-4e7f-8a9b-0c1d2e3f4a5b';
/** The attempt's time, Unix seconds. */
const T = 1_795_426_869;
const signed = (t = T, payload = body) => signatureHeaders(secret, deliveryId, t, payload);
/** A clock reading `seconds` (Unix seconds, fractions allowed). */
const at = (seconds: number): WebhookTimeOptions => ({ now: () => seconds * 1000 });
const serviceHex = (t: number | string, payload = body, key = secret) => createHmac('sha256', key).update(`${t}.${payload}`).digest('hex');
const standardOnly = (h: Record<string, string>) => ({ 'webhook-id': h['webhook-id']!, 'webhook-timestamp': h['webhook-timestamp']!, 'webhook-signature': h['webhook-signature']! });
const service = (value: string) => ({ 'service-signature': value });
/** The message verifyWebhook throws, or 'verified'. */
const outcome = (headers: WebhookHeaders, options: Parameters<typeof verifyWebhook>[3] = {}, key = secret) => {
  try {
    verifyWebhook(key, body, headers, options);
    return 'verified';
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookSignatureError);
    expect(error).toHaveProperty('name', 'WebhookSignatureError');
    return (error as Error).message;
  }
};

describe('the service signs each attempt with its time', () => {
  it('Service-Signature is t=<Unix seconds>,v1=<hex HMAC-SHA256 of "t.body" under the secret string>; Standard Webhooks unchanged', () => {
    const headers = signed();
    expect(headers).toEqual({
      'service-signature': `t=${T},v1=${serviceHex(T)}`,
      'webhook-id': deliveryId,
      'webhook-timestamp': String(T),
      // The Standard Webhooks library's own signer gives the same value.
      'webhook-signature': new Webhook(secret).sign(deliveryId, new Date(T * 1000), body),
    });
  });
});

describe('SDK webhook signature checks', () => {
  it('accepts both signatures the service makes, from a Headers object or a Node header record', () => {
    const headers = signed();
    expect(verifyServiceSignature(secret, body, headers, at(T))).toBe(true);
    expect(verifyStandardWebhookSignature(secret, body, headers, at(T))).toBe(true);
    expect(verifyServiceSignature(secret, Buffer.from(body), new Headers(headers), at(T))).toBe(true);
    expect(verifyStandardWebhookSignature(secret, Buffer.from(body), new Headers(headers), at(T))).toBe(true);
    const upper = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), [v]]));
    expect(verifyServiceSignature(secret, Buffer.from(body), upper, at(T))).toBe(true);
    expect(verifyStandardWebhookSignature(secret, Buffer.from(body), upper, at(T))).toBe(true);
    expect(verifyWebhook(secret, body, headers, at(T))).toMatchObject({ type: 'payment.succeeded', data: { id: 'pay_01JD8X3T0Q6W7Y8Z9A0B1C2D3E' } });
  });

  it('takes the raw body as any Uint8Array, not only a Buffer', () => {
    const headers = signed();
    const raw = new TextEncoder().encode(body);
    expect(verifyServiceSignature(secret, raw, headers, at(T))).toBe(true);
    expect(verifyStandardWebhookSignature(secret, raw, headers, at(T))).toBe(true);
    expect(verifyWebhook(secret, raw, standardOnly(headers), { scheme: 'standard-webhooks', ...at(T) })).toEqual(JSON.parse(body));
    expect(verifyWebhook(secret, raw, headers, { scheme: 'service-signature', ...at(T) })).toEqual(JSON.parse(body));
  });

  it('webhookIdOf reads webhook-id from a Headers object or a Node header record, in any case', () => {
    expect(webhookIdOf(new Headers(signed()))).toBe(deliveryId);
    expect(webhookIdOf({ 'Webhook-Id': deliveryId })).toBe(deliveryId);
    expect(webhookIdOf({ 'webhook-id': [deliveryId, 'another'] })).toBe(deliveryId);
    expect(webhookIdOf({ 'service-signature': 'x' })).toBeUndefined();
    // A header that is not there is not read from another one, whatever that one is called.
    expect(webhookIdOf({ undefined: 'x' })).toBeUndefined();
    expect(webhookIdOf(new Headers())).toBeUndefined();
  });

  it('by default uses the real clock and a 5-minute tolerance', () => {
    expect(DEFAULT_WEBHOOK_TOLERANCE_SECONDS).toBe(300);
    const now = Math.floor(Date.now() / 1000);
    for (const t of [now, now - 290, now + 290]) {
      expect([t - now, verifyServiceSignature(secret, body, signed(t)), verifyStandardWebhookSignature(secret, body, signed(t))]).toEqual([t - now, true, true]);
    }
    for (const t of [now - 310, now + 310, now - 3600]) {
      expect([t - now, verifyServiceSignature(secret, body, signed(t)), verifyStandardWebhookSignature(secret, body, signed(t))]).toEqual([t - now, false, false]);
      expect(() => verifyWebhook(secret, body, signed(t))).toThrow(WebhookSignatureError);
    }
  });

  it('accepts a request signed exactly 300 s ago (whole seconds), refuses one signed 301 s ago: each signature', () => {
    const headers = signed();
    for (const check of [verifyServiceSignature, verifyStandardWebhookSignature]) {
      expect([check.name, check(secret, body, headers, at(T + 300))]).toEqual([check.name, true]);
      expect([check.name, check(secret, body, headers, at(T + 300.999))]).toEqual([check.name, true]);
      expect([check.name, check(secret, body, headers, at(T + 301))]).toEqual([check.name, false]);
    }
    expect(outcome(headers, at(T + 300))).toBe('verified');
    expect(outcome(headers, at(T + 301))).toBe(
      'No valid webhook signature (either): Service-Signature: signed 301 s ago, more than 300 s; webhook-signature: signed 301 s ago, more than 300 s',
    );
  });

  it('accepts a time 300 s in the future (clock skew), refuses 301 s: each signature', () => {
    const headers = signed();
    for (const check of [verifyServiceSignature, verifyStandardWebhookSignature]) {
      expect([check.name, check(secret, body, headers, at(T - 300))]).toEqual([check.name, true]);
      expect([check.name, check(secret, body, headers, at(T - 301))]).toEqual([check.name, false]);
    }
    expect(outcome(headers, at(T - 301))).toBe(
      'No valid webhook signature (either): Service-Signature: signed 301 s in the future, more than 300 s; webhook-signature: signed 301 s in the future, more than 300 s',
    );
  });

  it('a replay with a fresh time in the headers does not verify: the time is signed', () => {
    const headers = signed();
    const v1 = serviceHex(T);
    for (const t of [T + 1, T - 1, T + 3600]) {
      expect(verifyServiceSignature(secret, body, service(`t=${t},v1=${v1}`), at(t))).toBe(false);
      expect(verifyStandardWebhookSignature(secret, body, { ...standardOnly(headers), 'webhook-timestamp': String(t) }, at(t))).toBe(false);
    }
    expect(outcome({ ...headers, 'service-signature': `t=${T + 600},v1=${v1}`, 'webhook-timestamp': String(T + 600) }, at(T + 600))).toBe(
      'No valid webhook signature (either): Service-Signature: no v1 signature matches; webhook-signature: no v1 signature matches',
    );
    expect(verifyStandardWebhookSignature(secret, body, { ...standardOnly(headers), 'webhook-id': 'another-delivery' }, at(T))).toBe(false);
  });

  it('refuses a changed body or another secret', () => {
    const headers = signed();
    const forged = body.replace('succeeded', 'failed');
    const other = `whsec_${Buffer.alloc(32, 8).toString('base64')}`;
    expect(verifyServiceSignature(secret, forged, headers, at(T))).toBe(false);
    expect(verifyStandardWebhookSignature(secret, forged, headers, at(T))).toBe(false);
    expect(verifyServiceSignature(other, body, headers, at(T))).toBe(false);
    expect(verifyStandardWebhookSignature(other, body, headers, at(T))).toBe(false);
    expect(() => verifyWebhook(secret, forged, headers, at(T))).toThrow(WebhookSignatureError);
  });

  it('refuses a Service-Signature with a part missing, malformed or doubled', () => {
    const v1 = serviceHex(T);
    const cases: Array<[WebhookHeaders, string]> = [
      [{}, 'missing'],
      [service(''), 'no t=<Unix seconds>'],
      [service(`v1=${v1}`), 'no t=<Unix seconds>'],
      [service(`t=,v1=${serviceHex('')}`), 'no t=<Unix seconds>'],
      [service(`t=${T}x,v1=${serviceHex(`${T}x`)}`), 'no t=<Unix seconds>'],
      [service(`t=-${T},v1=${serviceHex(`-${T}`)}`), 'no t=<Unix seconds>'],
      [service(`t=${T}`), 'no v1 signature'],
      [service(`t=${T},v1=`), 'no v1 signature matches'],
      [service(`t=${T},v1`), 'no v1 signature matches'],
      [service(`t=${T},v1=${v1.slice(0, -1)}`), 'no v1 signature matches'],
      [service(`t=${T},v1=${v1.toUpperCase()}`), 'no v1 signature matches'],
      [service(`t=${T},v0=${v1}`), 'no v1 signature'],
      [service(`t=${T},t=${T},v1=${v1}`), 'more than one t'],
      // The old form: a valid HMAC of the body alone, which signs no time.
      [service(`sha256=${createHmac('sha256', secret).update(body).digest('hex')}`), 'the old sha256= form signs no time and is not accepted'],
    ];
    for (const [headers, reason] of cases) {
      expect([headers, verifyServiceSignature(secret, body, headers, at(T))]).toEqual([headers, false]);
      expect([headers, outcome(headers, { scheme: 'service-signature', ...at(T) })]).toEqual([headers, `No valid webhook signature (service-signature): Service-Signature: ${reason}`]);
    }
  });

  it('accepts the one matching v1 among several, and skips other schemes', () => {
    const v1 = serviceHex(T);
    expect(verifyServiceSignature(secret, body, service(`t=${T},v1=${'0'.repeat(64)},v1=${v1}`), at(T))).toBe(true);
    expect(verifyServiceSignature(secret, body, service(`v0=abc,v1=${v1},t=${T}`), at(T))).toBe(true);
  });

  it('refuses Standard Webhooks headers with a part missing or malformed, and accepts one matching signature among several', () => {
    const headers = standardOnly(signed());
    const without = (name: string) => Object.fromEntries(Object.entries(headers).filter(([k]) => k !== name));
    const cases: Array<[WebhookHeaders, string]> = [
      [without('webhook-id'), 'missing webhook-id, webhook-timestamp or webhook-signature'],
      [without('webhook-timestamp'), 'missing webhook-id, webhook-timestamp or webhook-signature'],
      [without('webhook-signature'), 'missing webhook-id, webhook-timestamp or webhook-signature'],
      // The signature itself holds for "T": only the timestamp's spelling is wrong.
      [{ ...headers, 'webhook-timestamp': `${T}abc` }, 'webhook-timestamp is not Unix seconds'],
      [{ ...headers, 'webhook-timestamp': '' }, 'webhook-timestamp is not Unix seconds'],
      [{ ...headers, 'webhook-signature': headers['webhook-signature'].replace('v1,', 'v2,') }, 'no v1 signature matches'],
      [{ ...headers, 'webhook-signature': '' }, 'no v1 signature matches'],
    ];
    for (const [h, reason] of cases) {
      expect([h, verifyStandardWebhookSignature(secret, body, h, at(T))]).toEqual([h, false]);
      expect([h, outcome(h, { scheme: 'standard-webhooks', ...at(T) })]).toEqual([h, `No valid webhook signature (standard-webhooks): webhook-signature: ${reason}`]);
    }
    expect(verifyStandardWebhookSignature('not-a-whsec-secret!', body, headers, at(T))).toBe(false);
    expect(outcome(headers, { scheme: 'standard-webhooks', ...at(T) }, 'not-a-whsec-secret!')).toBe(
      'No valid webhook signature (standard-webhooks): webhook-signature: the secret is not a whsec_ key',
    );
    const rotated = { ...headers, 'webhook-signature': `v1,${Buffer.alloc(32).toString('base64')} ${headers['webhook-signature']}` };
    expect(verifyStandardWebhookSignature(secret, body, rotated, at(T))).toBe(true);
  });

  it('a tolerance of the caller\'s applies to both signatures; a negative or non-finite one is a programming error', () => {
    const headers = signed();
    expect(outcome(headers, { toleranceSeconds: 60, ...at(T + 60) })).toBe('verified');
    expect(outcome(headers, { toleranceSeconds: 60, ...at(T + 61) })).toBe(
      'No valid webhook signature (either): Service-Signature: signed 61 s ago, more than 60 s; webhook-signature: signed 61 s ago, more than 60 s',
    );
    expect(verifyServiceSignature(secret, body, headers, { toleranceSeconds: 0, ...at(T + 1) })).toBe(false);
    expect(verifyStandardWebhookSignature(secret, body, headers, { toleranceSeconds: 0, ...at(T) })).toBe(true);
    for (const toleranceSeconds of [-1, Number.NaN, Number.POSITIVE_INFINITY]) {
      for (const h of [headers, {}]) {
        expect(() => verifyServiceSignature(secret, body, h, { toleranceSeconds, ...at(T) })).toThrow(RangeError);
        expect(() => verifyStandardWebhookSignature(secret, body, h, { toleranceSeconds, ...at(T) })).toThrow(RangeError);
        expect(() => verifyWebhook(secret, body, h, { toleranceSeconds, ...at(T) })).toThrow(RangeError);
        expect(() => verifyWebhook(secret, body, h, { toleranceSeconds, ...at(T) })).toThrow(`toleranceSeconds must be a finite number >= 0, not ${toleranceSeconds}`);
      }
    }
    // A clock that answers nonsense refuses rather than accepts.
    expect(verifyServiceSignature(secret, body, headers, { now: () => Number.NaN })).toBe(false);
    expect(verifyStandardWebhookSignature(secret, body, headers, { now: () => Number.NaN })).toBe(false);
  });

  it('a scheme accepts only its own signature, given alone or with the clock', () => {
    const headers = signed();
    const onlyService = service(headers['service-signature']!);
    const onlyStandard = { ...headers, 'service-signature': `t=${T},v1=${serviceHex(T, body, 'wrong')}` };
    expect(verifyWebhook(secret, body, onlyService, { scheme: 'service-signature', ...at(T) }).type).toBe('payment.succeeded');
    expect(() => verifyWebhook(secret, body, onlyService, { scheme: 'standard-webhooks', ...at(T) })).toThrow(WebhookSignatureError);
    expect(verifyWebhook(secret, body, onlyStandard, { scheme: 'standard-webhooks', ...at(T) }).type).toBe('payment.succeeded');
    expect(() => verifyWebhook(secret, body, onlyStandard, { scheme: 'service-signature', ...at(T) })).toThrow(WebhookSignatureError);
    expect(verifyWebhook(secret, body, onlyStandard, at(T)).type).toBe('payment.succeeded');
    // The scheme alone, with the real clock.
    const fresh = signed(Math.floor(Date.now() / 1000));
    expect(verifyWebhook(secret, body, service(fresh['service-signature']!), 'service-signature').type).toBe('payment.succeeded');
    expect(() => verifyWebhook(secret, body, service(fresh['service-signature']!), 'standard-webhooks')).toThrow(WebhookSignatureError);
  });
});
