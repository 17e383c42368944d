import { createHmac, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { runInNewContext } from 'node:vm';
import { verifyServiceSignature, verifyStandardWebhookSignature, verifyWebhook, WebhookSignatureError } from '@payout-gateway/sdk';
import { startReceiver, type Receiver } from '../support/receiver';
import { eventually, moneyOutBody, startTestService, type TestService } from '../support/test-service';

/**
 * Webhooks the service delivers, checked with the SDK (docs/decisions.md § Webhooks): each
 * signature signs the attempt's time, so the request verifies when it arrives and not when it is
 * replayed more than 5 minutes later.
 */
describe('delivered webhooks and the SDK verifier', () => {
  let service: TestService;
  let receiver: Receiver;
  beforeAll(async () => {
    service = await startTestService();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await service.close();
    await receiver.close();
  });

  it('Service-Signature signs the attempt\'s time: it verifies on arrival, and a replay 301 s later fails for each signature', async () => {
    const { apiKey } = await service.newTenant();
    const registered = await service.call('POST', '/v1/webhooks/register', { apiKey, body: { url: receiver.url, events: ['payment.succeeded'] } });
    expect(registered.status).toBe(201);
    const secret = registered.body.secret as string;
    const paid = await service.call('POST', '/v1/payments/moneyout', { apiKey, body: moneyOutBody(), headers: { 'idempotency-key': randomUUID() } });
    expect(paid.status).toBe(201);
    const delivery = await eventually(async () => receiver.received.find((r) => JSON.parse(r.body).data.id === paid.body.id));

    // Service-Signature: t is the attempt's time (the same as webhook-timestamp), v1 the HMAC of "t.body".
    const header = String(delivery.headers['service-signature']);
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header) ?? [];
    expect(t).toBe(delivery.headers['webhook-timestamp']);
    const signedAt = Number(t);
    expect(Math.abs(signedAt - Math.floor(delivery.at / 1000))).toBeLessThanOrEqual(1);
    expect(v1).toBe(createHmac('sha256', secret).update(`${t}.${delivery.body}`).digest('hex'));

    // On arrival, with the real clock: each signature on its own, and both together.
    const serviceOnly = { 'service-signature': header };
    expect(verifyServiceSignature(secret, delivery.body, serviceOnly)).toBe(true);
    expect(verifyWebhook(secret, delivery.body, serviceOnly, 'service-signature')).toMatchObject({ type: 'payment.succeeded', data: { id: paid.body.id, status: 'succeeded' } });
    expect(verifyStandardWebhookSignature(secret, delivery.body, delivery.headers)).toBe(true);
    expect(verifyWebhook(secret, delivery.body, delivery.headers).type).toBe('payment.succeeded');

    // The same request captured and sent again later: accepted up to 300 s after it was signed, refused at 301 s.
    const later = (seconds: number) => ({ now: () => (signedAt + seconds) * 1000 });
    expect(verifyServiceSignature(secret, delivery.body, serviceOnly, later(300))).toBe(true);
    expect(verifyStandardWebhookSignature(secret, delivery.body, delivery.headers, later(300))).toBe(true);
    expect(verifyServiceSignature(secret, delivery.body, serviceOnly, later(301))).toBe(false);
    expect(verifyStandardWebhookSignature(secret, delivery.body, delivery.headers, later(301))).toBe(false);
    for (const scheme of ['either', 'service-signature', 'standard-webhooks'] as const) {
      expect(() => verifyWebhook(secret, delivery.body, delivery.headers, { scheme, ...later(301) })).toThrow(WebhookSignatureError);
    }
    // Moving the time forward in the headers breaks both signatures.
    const refreshed = { ...delivery.headers, 'service-signature': `t=${signedAt + 301},v1=${v1}`, 'webhook-timestamp': String(signedAt + 301) };
    expect(() => verifyWebhook(secret, delivery.body, refreshed, later(301))).toThrow(WebhookSignatureError);

    // README "Webhooks" shows the same check by hand for receivers without the SDK: it agrees.
    const readme = readFileSync(path.resolve(__dirname, '../../README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('\n## Webhooks'));
    const shown = section.slice(section.indexOf('```js\n') + 6, section.indexOf('// 2. Standard Webhooks'));
    const byHand = runInNewContext(`${shown}\nverifyServiceSignature`, { require, Buffer }) as
      (secret: string, rawBody: string, header: string, nowSeconds?: number) => boolean;
    expect(byHand(secret, delivery.body, header)).toBe(true);
    expect(byHand(secret, delivery.body, header, signedAt + 300)).toBe(true);
    expect(byHand(secret, delivery.body, header, signedAt + 301)).toBe(false);
    expect(byHand(secret, delivery.body, header, signedAt - 301)).toBe(false);
    expect(byHand(secret, delivery.body.replace('succeeded', 'failed'), header)).toBe(false);
    expect(byHand(secret, delivery.body, refreshed['service-signature'], signedAt + 301)).toBe(false);
  });
});
