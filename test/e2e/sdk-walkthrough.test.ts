import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { onWebhook, payOut } from '../../sdk/examples/walkthrough';
import { WebhookSignatureError } from '@payout-gateway/sdk';
import { startReceiver, type Receiver } from '../support/receiver';
import { eventually, moneyOutBody, startTestService, type TestService } from '../support/test-service';

const ROOT = path.resolve(__dirname, '../..');

/** The code README "Using the SDK" shows: sdk/examples/walkthrough.ts after its header comment. */
function exampleAsShown(): string {
  const source = readFileSync(path.join(ROOT, 'sdk/examples/walkthrough.ts'), 'utf8');
  return source.slice(source.indexOf('*/\n') + 3);
}

/**
 * README "Using the SDK", run through the SDK against the service: resolve, quote, register a
 * webhook, money-out (and its replay, and a typed refusal), watch the status, list payments
 * across pages, verify the webhooks that arrive.
 */
describe('the SDK walk-through', () => {
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

  it('README "Using the SDK" shows exactly the code this test runs', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Using the SDK'));
    const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
    expect(block).toBe(exampleAsShown());
  });

  it('pays out at a quoted rate, follows it to succeeded, lists payments across pages and verifies its webhooks', async () => {
    const { apiKey } = await service.newTenant();
    // Two earlier payouts, so the list of step 7 takes two pages of 2.
    const earlier = [];
    for (const _ of [1, 2]) {
      const res = await service.call('POST', '/v1/payments/moneyout', { apiKey, body: moneyOutBody(), headers: { 'idempotency-key': randomUUID() } });
      expect(res.status).toBe(201);
      earlier.push(res.body.id as string);
    }
    const lines: string[] = [];
    const result = await payOut(service.baseUrl, apiKey, receiver.url, (line) => lines.push(line));

    expect(result.paymentId).toMatch(/^pay_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(result.statuses.at(-1)).toBe('succeeded');
    expect(['initiated', 'provider_accepted', 'succeeded'].filter((s) => result.statuses.includes(s))).toEqual(result.statuses);
    expect(lines[0]).toMatch(/^1500 KES costs \d+(\.\d+)? USDC at \d+(\.\d+)? KES\/USDC$/);
    expect(lines[1]).toBe(`${result.paymentId} initiated; the same key again: ${result.paymentId}, replayed true`);
    expect(lines[2]).toMatch(/^another body under that key: 422 idempotency_key_reused \(Request-Id .+\)$/);
    // Three finished payouts at 2 a page: the third was reached only through Link rel="next".
    expect(result.finished.map((p) => p.split(' ').slice(0, 2).join(' '))).toEqual(
      [result.paymentId, ...earlier.reverse()].map((id) => `${id} succeeded`),
    );
    expect(lines.at(-1)).toBe('finished in the last hour: 3');

    // The payout used the quote's rate.
    const quotedRate = / at (\S+) KES\/USDC$/.exec(lines[0]!)?.[1];
    const stored = await service.call('GET', `/v1/payments/${result.paymentId}`, { apiKey });
    expect(stored.body).toMatchObject({ status: 'succeeded', fiatAmount: '1500.00', exchangeRate: quotedRate });

    // Every webhook that reached the endpoint verifies with the registration's secret, once each
    // (the earlier payouts moved after the registration too).
    const seen = new Set<string>();
    const ours = await eventually(async () => {
      const events = receiver.received.map((d) => onWebhook(result.webhookSecret, d.body, d.headers, new Set()));
      const forPayout = events.filter((e) => e?.data.id === result.paymentId).map((e) => e!.type);
      return forPayout.length >= 2 ? forPayout : undefined;
    });
    expect(ours).toEqual(['payment.processing', 'payment.succeeded']);
    const first = receiver.received[0]!;
    expect(onWebhook(result.webhookSecret, first.body, first.headers, seen)).toBeDefined();
    expect(onWebhook(result.webhookSecret, first.body, first.headers, seen)).toBeUndefined();
    expect(() => onWebhook(result.webhookSecret, first.body.replace('"payment.', '"payment.x'), first.headers, new Set()))
      .toThrow(WebhookSignatureError);
  });
});
