import { createHmac } from 'node:crypto';
import { signatureHeaders } from '../../src/adapters/providers/webhook-transport';
import { verifyServiceSignature, verifyStandardWebhookSignature, verifyWebhook, WebhookSignatureError } from '../../sdk/src';

/** The SDK's checks against the service's own signer (docs/decisions.md § Webhooks). */
describe('SDK webhook signature helpers', () => {
  const secret = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
  const body = JSON.stringify({
    id: '1d4f2c8e-9b7a-4e31-8f6c-2a5b7d9e0c13', type: 'payment.succeeded', timestamp: '2026-11-23T09:41:07.512Z',
    data: { id: 'pay_01JD8X3T0Q6W7Y8Z9A0B1C2D3E', status: 'succeeded', fiatAmount: '1500.00' },
  });
  const now = () => Math.floor(Date.now() / 1000);
  const signed = (at = now(), payload = body) => signatureHeaders(secret, '7d3e1a2b-5c6d-4e7f-8a9b-0c1d2e3f4a5b', at, payload);

  it('accepts both signatures the service makes, from a Headers object or a Node header record', () => {
    const headers = signed();
    expect(verifyServiceSignature(secret, body, headers)).toBe(true);
    expect(verifyStandardWebhookSignature(secret, body, headers)).toBe(true);
    expect(verifyStandardWebhookSignature(secret, Buffer.from(body), new Headers(headers))).toBe(true);
    const upper = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), [v]]));
    expect(verifyServiceSignature(secret, Buffer.from(body), upper)).toBe(true);
    expect(verifyWebhook(secret, body, headers)).toMatchObject({ type: 'payment.succeeded', data: { id: 'pay_01JD8X3T0Q6W7Y8Z9A0B1C2D3E' } });
  });

  it('refuses a changed body, another secret, or missing headers', () => {
    const headers = signed();
    const forged = body.replace('succeeded', 'failed');
    const other = `whsec_${Buffer.alloc(32, 8).toString('base64')}`;
    expect(verifyServiceSignature(secret, forged, headers)).toBe(false);
    expect(verifyStandardWebhookSignature(secret, forged, headers)).toBe(false);
    expect(verifyServiceSignature(other, body, headers)).toBe(false);
    expect(verifyStandardWebhookSignature(other, body, headers)).toBe(false);
    expect(verifyServiceSignature(secret, body, {})).toBe(false);
    expect(verifyStandardWebhookSignature(secret, body, { 'webhook-id': 'x' })).toBe(false);
    expect(() => verifyWebhook(secret, forged, headers)).toThrow(WebhookSignatureError);
  });

  it('refuses a Standard Webhooks timestamp more than 5 minutes old (a replayed request); Service-Signature has no timestamp', () => {
    const stale = signed(now() - 6 * 60);
    expect(verifyStandardWebhookSignature(secret, body, stale)).toBe(false);
    expect(verifyServiceSignature(secret, body, stale)).toBe(true);
    expect(() => verifyWebhook(secret, body, stale, 'standard-webhooks')).toThrow(WebhookSignatureError);
  });

  it('a scheme accepts only its own signature', () => {
    const headers = signed();
    const onlyService = { 'service-signature': headers['service-signature']! };
    const onlyStandard = { ...headers, 'service-signature': `sha256=${createHmac('sha256', 'wrong').update(body).digest('hex')}` };
    expect(verifyWebhook(secret, body, onlyService, 'service-signature').type).toBe('payment.succeeded');
    expect(() => verifyWebhook(secret, body, onlyService, 'standard-webhooks')).toThrow(WebhookSignatureError);
    expect(verifyWebhook(secret, body, onlyStandard, 'standard-webhooks').type).toBe('payment.succeeded');
    expect(() => verifyWebhook(secret, body, onlyStandard, 'service-signature')).toThrow(WebhookSignatureError);
    expect(verifyWebhook(secret, body, onlyStandard).type).toBe('payment.succeeded');
  });
});
