import { readFileSync } from 'node:fs';
import path from 'node:path';
import { onWebhook, payOut } from '../../sdk/examples/walkthrough';
import { WebhookSignatureError } from '@payout-gateway/sdk';
import { startReceiver, type Receiver } from '../support/receiver';
import { eventually, startTestService, type TestService } from '../support/test-service';

const ROOT = path.resolve(__dirname, '../..');

/** The code README "Using the SDK" shows: sdk/examples/walkthrough.ts after its header comment. */
function exampleAsShown(): string {
  const source = readFileSync(path.join(ROOT, 'sdk/examples/walkthrough.ts'), 'utf8');
  return source.slice(source.indexOf('*/\n') + 3);
}

/**
 * README "Using the SDK", run through the SDK against the service: resolve, quote, register a
 * webhook, money-out (and its replay, and a typed refusal), watch the status, list with paging,
 * verify the webhooks that arrive.
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

  it('pays out at a quoted rate, follows it to succeeded, lists its events and verifies its webhooks', async () => {
    const { apiKey } = await service.newTenant();
    const lines: string[] = [];
    const result = await payOut(service.baseUrl, apiKey, receiver.url, (line) => lines.push(line));

    expect(result.paymentId).toMatch(/^pay_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(result.statuses.at(-1)).toBe('succeeded');
    expect(['initiated', 'provider_accepted', 'succeeded'].filter((s) => result.statuses.includes(s))).toEqual(result.statuses);
    expect(lines[0]).toMatch(/^1500 KES costs \d+(\.\d+)? USDC at \d+(\.\d+)? KES\/USDC$/);
    expect(lines[1]).toBe(`${result.paymentId} initiated; the same key again: ${result.paymentId}, replayed true`);
    expect(lines[2]).toMatch(/^another body under that key: 422 idempotency_key_reused \(Request-Id .+\)$/);
    // One entry per page (limit 1): both events were reached only by following Link rel="next".
    expect(result.events.map((e) => e.split(' ')[0])).toEqual(['payment.succeeded', 'payment.processing']);

    // The payout used the quote's rate.
    const quotedRate = / at (\S+) KES\/USDC$/.exec(lines[0]!)?.[1];
    const stored = await service.call('GET', `/v1/payments/${result.paymentId}`, { apiKey });
    expect(stored.body).toMatchObject({ status: 'succeeded', fiatAmount: '1500.00', exchangeRate: quotedRate });

    // The webhooks that reached the endpoint verify with the registration's secret, once each.
    const deliveries = await eventually(async () => (receiver.received.length >= 2 ? receiver.received.slice(0, 2) : undefined));
    const seen = new Set<string>();
    const events = deliveries.map((d) => onWebhook(result.webhookSecret, d.body, d.headers, seen));
    expect(events.map((e) => [e?.type, e?.data.id])).toEqual([
      ['payment.processing', result.paymentId], ['payment.succeeded', result.paymentId],
    ]);
    expect(onWebhook(result.webhookSecret, deliveries[0]!.body, deliveries[0]!.headers, seen)).toBeUndefined();
    expect(() => onWebhook(result.webhookSecret, deliveries[0]!.body.replace('processing', 'succeeded'), deliveries[0]!.headers, new Set()))
      .toThrow(WebhookSignatureError);
  });
});
