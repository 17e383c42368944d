import { createHmac, randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { startReceiver, type Receiver } from '../support/receiver';
import { eventually, moneyOutBody, startTestService, type TestService } from '../support/test-service';

describe('webhooks', () => {
  let service: TestService;
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    service = await startTestService({ WEBHOOK_RETRY_SCHEDULE_MS: '0,50,50', WEBHOOK_TIMEOUT_MS: '300' });
  });
  afterAll(async () => {
    await service.close();
    await Promise.all(receivers.map((r) => r.close()));
  });

  const receiver = async (reply?: Parameters<typeof startReceiver>[0]) => {
    const r = await startReceiver(reply);
    receivers.push(r);
    return r;
  };
  const register = async (apiKey: string, url: string, events?: string[]) => {
    const res = await service.call('POST', '/v1/webhooks/register', { apiKey, body: { url, ...(events ? { events } : {}) } });
    expect(res.status).toBe(201);
    return res.body as { webhookId: string; secret: string; url: string; events: string[] };
  };
  const pay = async (apiKey: string, accountNumber = '254712345678') => {
    const res = await service.call('POST', '/v1/payments/moneyout', {
      apiKey, body: moneyOutBody({ accountNumber }), headers: { 'idempotency-key': randomUUID() },
    });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const events = (apiKey: string, query = '') => service.call('GET', `/v1/webhooks/events${query}`, { apiKey });

  it('delivers payment.processing then payment.succeeded, signed both ways', async () => {
    const { apiKey } = await service.newTenant();
    const hook = await receiver();
    const { secret } = await register(apiKey, hook.url);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const paymentId = await pay(apiKey);
    await eventually(async () => (hook.received.length >= 2 ? true : undefined));
    const [first, second] = hook.received.map((r) => ({ ...r, json: JSON.parse(r.body) }));
    expect(first!.json).toMatchObject({ type: 'payment.processing', data: { id: paymentId, status: 'provider_accepted' } });
    expect(second!.json).toMatchObject({ type: 'payment.succeeded', data: { id: paymentId, status: 'succeeded' } });
    for (const r of [first!, second!]) {
      const t = String(r.headers['webhook-timestamp']);
      const expected = `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${r.body}`).digest('hex')}`;
      expect(r.headers['service-signature']).toBe(expected);
    }
    const verified = new Webhook(secret).verify(second!.body, {
      'webhook-id': String(second!.headers['webhook-id']),
      'webhook-timestamp': String(second!.headers['webhook-timestamp']),
      'webhook-signature': String(second!.headers['webhook-signature']),
    });
    expect(verified).toMatchObject({ type: 'payment.succeeded' });
    expect(() => new Webhook(secret).verify(second!.body.replace('succeeded', 'failed'), {
      'webhook-id': String(second!.headers['webhook-id']),
      'webhook-timestamp': String(second!.headers['webhook-timestamp']),
      'webhook-signature': String(second!.headers['webhook-signature']),
    })).toThrow();
    // The receiver answers before the worker records the outcome (results are written in batches): wait for the records.
    const rows = await eventually(async () => {
      const log = await events(apiKey, `?entityId=${paymentId}`);
      const seen = log.body.map((e: { eventType: string; status: string }) => [e.eventType, e.status]);
      return seen.every((r: string[]) => r[1] === 'delivered') ? seen : undefined;
    });
    expect(rows).toEqual([['payment.succeeded', 'delivered'], ['payment.processing', 'delivered']]);
  });

  it('retries a 500: delivered at attempt 2 with the first error kept, same webhook-id', async () => {
    const { apiKey } = await service.newTenant();
    const hook = await receiver((n) => ({ status: n === 0 ? 500 : 200 }));
    await register(apiKey, hook.url, ['payment.processing']);
    const paymentId = await pay(apiKey);
    const entry = await eventually(async () => {
      const log = await events(apiKey, `?entityId=${paymentId}`);
      return log.body[0]?.status === 'delivered' ? log.body[0] : undefined;
    });
    expect(entry).toMatchObject({ attempt: 2, lastError: 'HTTP 500', eventType: 'payment.processing' });
    expect(hook.received).toHaveLength(2);
    expect(hook.received[0]!.headers['webhook-id']).toBe(hook.received[1]!.headers['webhook-id']);
    expect(hook.received[0]!.body).toBe(hook.received[1]!.body);
  });

  it('keeps the last error while retrying and fails after the last attempt', async () => {
    const { apiKey } = await service.newTenant();
    const hook = await receiver(() => ({ status: 503 }));
    await register(apiKey, hook.url, ['payment.processing']);
    const paymentId = await pay(apiKey);
    const entry = await eventually(async () => {
      const log = await events(apiKey, `?entityId=${paymentId}`);
      return log.body[0]?.status === 'failed' ? log.body[0] : undefined;
    });
    expect(entry).toMatchObject({ attempt: 3, lastError: 'HTTP 503', nextRetryAt: null });
    expect(hook.received).toHaveLength(3);
  });

  it('never counts a redirect as delivered, and never follows it', async () => {
    const { apiKey } = await service.newTenant();
    const elsewhere = await receiver();
    const hook = await receiver(() => ({ status: 302, headers: { location: elsewhere.url } }));
    await register(apiKey, hook.url, ['payment.processing']);
    const paymentId = await pay(apiKey);
    const entry = await eventually(async () => {
      const log = await events(apiKey, `?entityId=${paymentId}`);
      return log.body[0]?.status === 'failed' ? log.body[0] : undefined;
    });
    expect(entry).toMatchObject({ attempt: 3, lastError: 'HTTP 302', nextRetryAt: null });
    expect(hook.received).toHaveLength(3);
    expect(elsewhere.received).toHaveLength(0);
  });

  it('waits as long as a 429\'s Retry-After asks, beyond the 50 ms schedule', async () => {
    const { apiKey } = await service.newTenant();
    const hook = await receiver(() => ({ status: 429, headers: { 'retry-after': '3600' } }));
    await register(apiKey, hook.url, ['payment.processing']);
    const paymentId = await pay(apiKey);
    const entry = await eventually(async () => {
      const log = await events(apiKey, `?entityId=${paymentId}`);
      return log.body[0]?.lastError === 'HTTP 429' ? log.body[0] : undefined;
    });
    expect(entry).toMatchObject({ status: 'pending', attempt: 1 });
    // An hour (the header's 3600 seconds) from the attempt, give or take this test's own delay.
    const waitMs = Date.parse(entry.nextRetryAt) - Date.parse(entry.updatedAt);
    expect(waitMs).toBeGreaterThanOrEqual(3_590_000);
    expect(waitMs).toBeLessThanOrEqual(3_600_000);
    expect(hook.received).toHaveLength(1);
  });

  it('disables a registration that answers 410', async () => {
    const { apiKey } = await service.newTenant();
    const hook = await receiver(() => ({ status: 410 }));
    const { webhookId } = await register(apiKey, hook.url);
    const paymentId = await pay(apiKey);
    await eventually(async () => {
      const list = await service.call('GET', '/v1/webhooks', { apiKey });
      return list.body.find((w: { webhookId: string; status: string }) => w.webhookId === webhookId)?.status === 'disabled' ? true : undefined;
    });
    // Once the payment is final every delivery it will ever have exists (fanned out with each move);
    // once none is pending, nothing more can be sent.
    await eventually(async () => ((await service.call('GET', `/v1/payments/${paymentId}`, { apiKey })).body.status === 'succeeded' ? true : undefined));
    const log = await eventually(async () => {
      const page = await events(apiKey, `?entityId=${paymentId}`);
      return page.body.length > 0 && !page.body.some((e: { status: string }) => e.status === 'pending') ? page.body : undefined;
    });
    expect(log.map((e: { status: string; lastError: string }) => [e.status, e.lastError]))
      .toEqual(log.length === 1 ? [['failed', 'HTTP 410: registration disabled']] : [['failed', 'registration disabled or deleted'], ['failed', 'HTTP 410: registration disabled']]);
    expect(hook.received).toHaveLength(1);
  });

  it('times out a hanging receiver and retries it', async () => {
    const { apiKey } = await service.newTenant();
    const hook = await receiver((n) => (n === 0 ? 'hang' : { status: 204 }));
    await register(apiKey, hook.url, ['payment.processing']);
    const paymentId = await pay(apiKey);
    const entry = await eventually(async () => {
      const log = await events(apiKey, `?entityId=${paymentId}`);
      return log.body[0]?.status === 'delivered' ? log.body[0] : undefined;
    });
    expect(entry.attempt).toBe(2);
    expect(hook.received).toHaveLength(2);
  });

  it('filters the log, pages it with Link, and never shows another tenant', async () => {
    const { apiKey } = await service.newTenant();
    const other = await service.newTenant();
    const hook = await receiver();
    await register(apiKey, hook.url);
    const ids = [await pay(apiKey), await pay(apiKey), await pay(apiKey, '254712340000')];
    await eventually(async () => (hook.received.length >= 5 ? true : undefined));
    const failed = await events(apiKey, '?eventType=payment.failed');
    expect(failed.body).toHaveLength(1);
    expect(failed.body[0].entityId).toBe(ids[2]);
    const page1 = await events(apiKey, '?limit=2&status=delivered');
    expect(page1.body).toHaveLength(2);
    const link = page1.headers.get('link')!;
    expect(link).toMatch(/^<\/v1\/webhooks\/events\?.*cursor=.*>; rel="next"$/);
    const nextPath = /^<([^>]+)>/.exec(link)![1]!;
    const page2 = await service.call('GET', nextPath, { apiKey });
    const seen = [...page1.body, ...page2.body].map((e: { id: string }) => e.id);
    expect(new Set(seen).size).toBe(seen.length);
    expect(page1.body[0].createdAt >= page1.body[1].createdAt).toBe(true);
    expect((await events(other.apiKey)).body).toEqual([]);
    expect((await service.call('POST', `/v1/webhooks/events/${page1.body[0].id}/retry`, { apiKey: other.apiKey })).status).toBe(404);
    expect((await events(apiKey, '?limit=0')).status).toBe(400);
    expect((await events(apiKey, '?cursor=garbage')).status).toBe(400);
  });

  it('redelivers one entry on demand', async () => {
    const { apiKey } = await service.newTenant();
    const hook = await receiver();
    await register(apiKey, hook.url, ['payment.processing']);
    const paymentId = await pay(apiKey);
    const entry = await eventually(async () => {
      const log = await events(apiKey, `?entityId=${paymentId}`);
      return log.body[0]?.status === 'delivered' ? log.body[0] : undefined;
    });
    const retry = await service.call('POST', `/v1/webhooks/events/${entry.id}/retry`, { apiKey });
    expect(retry.status).toBe(202);
    await eventually(async () => (hook.received.length === 2 ? true : undefined));
    expect(hook.received[1]!.headers['webhook-id']).toBe(entry.id);
  });

  it('does not send older events to a later registration, and stops after delete', async () => {
    const { apiKey } = await service.newTenant();
    const paymentId = await pay(apiKey);
    await eventually(async () => ((await service.call('GET', `/v1/payments/${paymentId}`, { apiKey })).body.status === 'succeeded' ? true : undefined));
    const hook = await receiver();
    const { webhookId } = await register(apiKey, hook.url);
    // Deliveries are fanned out when an event is written: events before the registration have none.
    expect((await events(apiKey, `?entityId=${paymentId}`)).body).toEqual([]);
    expect((await service.call('DELETE', `/v1/webhooks/${webhookId}`, { apiKey })).status).toBe(204);
    expect((await service.call('DELETE', `/v1/webhooks/${webhookId}`, { apiKey })).status).toBe(404);
    const after = await pay(apiKey);
    // Final: every event of the payment has been written, and none fanned out to the deleted registration.
    await eventually(async () => ((await service.call('GET', `/v1/payments/${after}`, { apiKey })).body.status === 'succeeded' ? true : undefined));
    expect((await events(apiKey, `?entityId=${after}`)).body).toEqual([]);
    expect(hook.received).toHaveLength(0);
    const list = await service.call('GET', '/v1/webhooks', { apiKey });
    expect(list.body).toEqual([]);
    expect(list.text).not.toContain('whsec_');
  });

  it('refuses unknown event types and malformed urls', async () => {
    const { apiKey } = await service.newTenant();
    const bad = await service.call('POST', '/v1/webhooks/register', { apiKey, body: { url: 'https://example.com/h', events: ['payment.exploded'] } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('validation_error');
    const notUrl = await service.call('POST', '/v1/webhooks/register', { apiKey, body: { url: 'not a url' } });
    expect(notUrl.status).toBe(400);
    const kyc = await service.call('POST', '/v1/webhooks/register', { apiKey, body: { url: 'https://example.com/h', events: ['customer.kyc.updated'] } });
    expect(kyc.status).toBe(201);
  });
});
