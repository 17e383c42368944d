import { randomUUID } from 'node:crypto';
import { DnsTargetGuard } from '../../src/adapters/providers/target-guard';
import { AesGcmSecretBox } from '../../src/adapters/providers/secret-box';
import { UndiciWebhookTransport } from '../../src/adapters/providers/webhook-transport';
import { startReceiver, type Receiver } from '../support/receiver';
import { eventually, moneyOutBody, startTestService, type TestService } from '../support/test-service';

const receivers: Receiver[] = [];
afterAll(() => Promise.all(receivers.map((r) => r.close())));

async function payments(service: TestService, apiKey: string, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await service.call('POST', '/v1/payments/moneyout', {
      apiKey, body: moneyOutBody(), headers: { 'idempotency-key': randomUUID() },
    });
    ids.push(res.body.id);
  }
  return ids;
}

describe('webhook targets when private targets are not allowed', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' });
  });
  afterAll(() => service.close());

  it.each(['http://169.254.169.254/', 'https://10.0.0.1/', 'https://localhost/', 'https://127.0.0.1:8443/x', 'https://[::1]/', 'http://example.com/hook'])(
    'refuses %s', async (url) => {
      const { apiKey } = await service.newTenant();
      const res = await service.call('POST', '/v1/webhooks/register', { apiKey, body: { url } });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('validation_error');
    },
  );

  it('refuses a public-looking name that resolves to a loopback address', async () => {
    const guard = new DnsTargetGuard(async (host) => (host === 'hooks.evil.example' ? ['127.0.0.1'] : []));
    expect(await guard.refusal(new URL('https://hooks.evil.example/x'))).toMatch(/127\.0\.0\.1/);
    expect(await guard.refusal(new URL('https://hooks.fine.example/x'))).toBeUndefined();
  });

  it('refuses a private address at connect time (DNS rebinding)', async () => {
    const hook = await startReceiver();
    receivers.push(hook);
    const box = new AesGcmSecretBox(Buffer.alloc(32, 1));
    const transport = new UndiciWebhookTransport(box, false, 1000);
    const port = new URL(hook.url).port;
    const job = {
      id: randomUUID(), registrationId: randomUUID(), registrationActive: true, attempt: 1,
      secretCiphertext: box.seal(box.newSecret()),
      event: { id: randomUUID(), type: 'payment.succeeded', entityId: 'pay_x', createdAt: new Date(), payload: {} },
    };
    const byName = await transport.send({ ...job, url: `http://localhost:${port}/hooks` }, '{}', new Date());
    const byAddress = await transport.send({ ...job, url: hook.url }, '{}', new Date());
    await transport.close();
    expect(byName).toEqual({ error: expect.stringMatching(/refused target/) });
    expect(byAddress).toEqual({ error: expect.stringMatching(/refused target/) });
    expect(hook.received).toHaveLength(0);
  });
});

describe('webhook delivery across workers and restarts', () => {
  it('delivers events committed while no worker ran, exactly once, after a restart', async () => {
    const hook = await startReceiver();
    receivers.push(hook);
    // First process: payments progress, but the delivery worker is "dead" between commit and delivery.
    const first = await startTestService({ WEBHOOK_WORKER_ENABLED: 'false' });
    const { apiKey } = await first.newTenant();
    await first.call('POST', '/v1/webhooks/register', { apiKey, body: { url: hook.url } });
    const [paymentId] = await payments(first, apiKey, 1);
    await eventually(async () => ((await first.call('GET', `/v1/payments/${paymentId}`, { apiKey })).body.status === 'succeeded' ? true : undefined));
    await first.close();
    expect(hook.received).toHaveLength(0);

    const second = await startTestService({ WORKER_ENABLED: 'false' });
    try {
      // Recorded delivered (after the receiver's 200): nothing of these two can be sent again.
      const log = await eventually(async () => {
        const page = await second.call('GET', `/v1/webhooks/events?entityId=${paymentId}`, { apiKey });
        return page.body.length === 2 && page.body.every((e: { status: string }) => e.status === 'delivered') ? page.body : undefined;
      });
      expect(hook.received.map((r) => JSON.parse(r.body).type)).toEqual(['payment.processing', 'payment.succeeded']);
      expect(log.map((e: { status: string; attempt: number }) => `${e.status} ${e.attempt}`)).toEqual(['delivered 1', 'delivered 1']);
    } finally {
      await second.close();
    }
  });

  it('never delivers one row twice with two workers on one database', async () => {
    const hook = await startReceiver();
    receivers.push(hook);
    const a = await startTestService({ WEBHOOK_WORKER_ENABLED: 'false' });
    const { apiKey, tenantId } = await a.newTenant();
    await a.call('POST', '/v1/webhooks/register', { apiKey, body: { url: hook.url } });
    const ids = await payments(a, apiKey, 30);
    await eventually(async () => {
      const rows = await a.database.orm.em.fork().getConnection().execute(
        `select count(*)::int as n from webhook_deliveries where tenant_id = ? and status = 'pending'`, [tenantId]);
      return rows[0]?.n === ids.length * 2 ? true : undefined;
    }, 20_000);
    // Two replicas' delivery workers now race for the same 60 rows.
    const b = await startTestService({ WORKER_ENABLED: 'false', WEBHOOK_BATCH_SIZE: '7' });
    const c = await startTestService({ WORKER_ENABLED: 'false', WEBHOOK_BATCH_SIZE: '7' });
    try {
      // Every row recorded delivered (after its 200): none can be claimed and sent again.
      await eventually(async () => {
        const rows = await a.database.orm.em.fork().getConnection().execute(
          `select count(*)::int as n from webhook_deliveries where tenant_id = ? and status = 'delivered'`, [tenantId]);
        return rows[0]?.n === ids.length * 2 ? true : undefined;
      }, 20_000);
      const perId = new Map<string, number>();
      for (const r of hook.received) perId.set(String(r.headers['webhook-id']), (perId.get(String(r.headers['webhook-id'])) ?? 0) + 1);
      expect(perId.size).toBe(ids.length * 2);
      expect([...perId.values()]).toEqual(Array(ids.length * 2).fill(1));
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  });
});
