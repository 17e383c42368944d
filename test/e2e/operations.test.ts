import { randomUUID } from 'node:crypto';
import { eventually, moneyOutBody, startTestService, type TestService } from '../support/test-service';
import { startReceiver } from '../support/receiver';
import { connectRaw, subscribe } from '../support/graphql-client';

describe('operations: rate limits and security headers', () => {
  let service: TestService;
  beforeAll(async () => {
    // A tiny limit of its own (the other suites run with a huge one so polling never trips it).
    service = await startTestService({ RATE_LIMIT_PER_MINUTE: '3' });
  });
  afterAll(() => service.close());

  it('refuses the 4th request of a minute with 429 shape A and rate-limit headers, per key', async () => {
    const { apiKey } = await service.newTenant();
    const first = await service.call('GET', '/v1/balances', { apiKey });
    expect(first.headers.get('ratelimit-policy')).toBe('3;w=60');
    expect(first.headers.get('ratelimit')).toMatch(/^limit=3, remaining=2, reset=\d+$/);
    await service.call('GET', '/v1/balances', { apiKey });
    expect((await service.call('GET', '/v1/balances', { apiKey })).headers.get('ratelimit')).toMatch(/^limit=3, remaining=0, reset=\d+$/);
    const refused = await service.call('GET', '/v1/balances', { apiKey });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ statusCode: 429, code: 'rate_limited', message: expect.any(String), details: { requestId: expect.any(String) } });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers.get('ratelimit')).toBe(`limit=3, remaining=0, reset=${retryAfter}`);
    expect(refused.headers.get('ratelimit-policy')).toBe('3;w=60');
    // Every route counts against the key, and a refused request does nothing.
    expect((await service.call('POST', '/v1/customers', { apiKey, body: {} })).status).toBe(429);
    const other = await service.newTenant();
    expect((await service.call('GET', '/v1/balances', { apiKey: other.apiKey })).status).toBe(200);
  });

  it('never limits the probes /livez and /readyz, whatever key comes along', async () => {
    const { apiKey } = await service.newTenant();
    for (let i = 0; i < 3; i++) await service.call('GET', '/v1/balances', { apiKey });
    for (let i = 0; i < 5; i++) {
      for (const path of ['/livez', '/readyz']) {
        const res = await service.call('GET', path, { apiKey });
        expect(res.status).toBe(200);
        expect(res.headers.get('ratelimit')).toBeNull();
      }
    }
  });

  it('counts graphql-ws connections and subscriptions against the same per-key budget', async () => {
    const { apiKey } = await service.newTenant();
    const query = 'subscription { paymentUpdated { id } }';
    const first = subscribe(service.baseUrl, apiKey, query); // connection: 1, subscription: 2
    const second = subscribe(service.baseUrl, apiKey, query); // connection: 3, subscription: refused
    try {
      await eventually(async () => (first.errors.length + second.errors.length > 0 ? true : undefined));
      const refused = [...first.errors, ...second.errors][0];
      const text = JSON.stringify(refused instanceof Error ? refused.message : refused);
      expect(text).toMatch(/rate_limited|Too many requests/);
      expect(first.errors.length + second.errors.length).toBe(1);
      // The budget is spent: a new connection is closed with 4429 and says when to retry.
      const closed = await connectRaw(service.baseUrl, { authorization: apiKey });
      expect(closed).toEqual({ code: 4429, reason: expect.stringMatching(/retry after \d+ s/) });
      expect((await service.call('GET', '/v1/balances', { apiKey })).status).toBe(429);
    } finally {
      await first.dispose();
      await second.dispose();
    }
  });

  it('honours a tenant override', async () => {
    const admin = await service.newAdminKey();
    const tenant = await service.call('POST', '/v1/admin/tenants', { apiKey: admin, body: { name: 'Big issuer', rateLimitPerMinute: 10 } });
    const key = await service.call('POST', `/v1/admin/tenants/${tenant.body.tenantId}/api-keys`, { apiKey: admin, body: { scope: 'issuer' } });
    for (let i = 0; i < 9; i++) expect((await service.call('GET', '/v1/balances', { apiKey: key.body.apiKey })).status).toBe(200);
    const last = await service.call('GET', '/v1/balances', { apiKey: key.body.apiKey });
    expect(last.headers.get('ratelimit-policy')).toBe('10;w=60');
    expect(last.headers.get('ratelimit')).toMatch(/^limit=10, remaining=0, reset=\d+$/);
    expect((await service.call('GET', '/v1/balances', { apiKey: key.body.apiKey })).status).toBe(429);
  });

  it('sends security headers', async () => {
    const res = await service.call('GET', '/livez');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('strict-transport-security')).toMatch(/max-age=/);
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(res.headers.get('x-powered-by')).toBeNull();
  });
});

describe('operations: /metrics and /health', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service.close());

  const scrape = async (apiKey: string) => {
    const res = await fetch(`${service.baseUrl}/metrics`, { headers: { authorization: `Bearer ${apiKey}` } });
    return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
  };
  const sample = (text: string, series: string) => {
    const line = text.split('\n').find((l) => l.startsWith(`${series} `));
    return line === undefined ? undefined : Number(line.slice(series.length + 1));
  };

  it('serves Prometheus metrics to admin keys only', async () => {
    const { apiKey } = await service.newTenant();
    expect((await scrape(apiKey)).status).toBe(403);
    expect((await service.call('GET', '/metrics')).status).toBe(401);
    const res = await scrape(await service.newAdminKey());
    expect(res.status).toBe(200);
    expect(res.type).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.text).toContain('process_cpu_seconds_total');
  });

  it('counts requests per route template and status, payment transitions, deliveries, KYC decisions and queue depth', async () => {
    const admin = await service.newAdminKey();
    const { apiKey } = await service.newTenant();
    const hook = await startReceiver();
    try {
      await service.call('POST', '/v1/webhooks/register', { apiKey, body: { url: hook.url } });
      const paid = await service.call('POST', '/v1/payments/moneyout', { apiKey, body: moneyOutBody(), headers: { 'idempotency-key': randomUUID() } });
      const customer = await service.call('POST', '/v1/customers', {
        apiKey, body: { externalId: randomUUID(), firstName: 'A', lastName: 'B', country: 'KE', dateOfBirth: '1990-01-01', idType: 'PASSPORT', idNumber: 'P1234567' },
      });
      await service.call('GET', `/v1/customers/${customer.body.id}`, { apiKey });
      await service.call('GET', '/v1/customers/cus_unknown', { apiKey });
      // Deliveries: payment.processing, payment.succeeded, customer.kyc.updated.
      await eventually(async () => (hook.received.length >= 3 ? true : undefined));
      const { text } = await eventually(async () => {
        const s = await scrape(admin);
        return (sample(s.text, 'webhook_delivery_attempts_total{outcome="delivered"}') ?? 0) >= 3 ? s : undefined;
      });
      expect(paid.status).toBe(201);
      // Parametrised routes appear by their template, never the raw path (bounded label values).
      expect(sample(text, 'http_requests_total{route="/v1/customers/{customerId}",method="GET",status="200"}')).toBe(1);
      expect(sample(text, 'http_requests_total{route="/v1/customers/{customerId}",method="GET",status="404"}')).toBe(1);
      expect(sample(text, 'http_requests_total{route="/v1/payments/moneyout",method="POST",status="201"}')).toBe(1);
      expect(sample(text, 'http_request_duration_seconds_count{route="/v1/customers",method="POST",status="201"}')).toBe(1);
      expect(text).toMatch(/http_request_duration_seconds_bucket\{le="0\.1",route="\/v1\/customers",method="POST",status="201"\} \d+/);
      expect(text).not.toContain(customer.body.id);
      // By provider (none before one has the payment) and corridor (README "Metrics and health"; exact counts in metrics.test.ts).
      for (const [status, provider] of [['initiated', 'none'], ['provider_accepted', 'sandbox'], ['succeeded', 'sandbox']]) {
        expect(sample(text, `payment_transitions_total{status="${status}",provider="${provider}",country="KE",payment_method="MOMO"}`)).toBeGreaterThanOrEqual(1);
      }
      expect(sample(text, 'customer_kyc_decisions_total{status="approved"}')).toBeGreaterThanOrEqual(1);
      for (const queue of ['payments', 'webhook_deliveries', 'kyc']) expect(sample(text, `work_queue_depth{queue="${queue}"}`)).toBeGreaterThanOrEqual(0);
    } finally {
      await hook.close();
    }
  });

  it('reports every worker with its last pass on /health', async () => {
    const { apiKey } = await service.newTenant();
    const health = await eventually(async () => {
      const res = await service.call('GET', '/health', { apiKey });
      return res.body.workers.length === 4 && res.body.workers.every((w: { lastPassAt: string | null }) => w.lastPassAt !== null) ? res : undefined;
    });
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: 'ok', version: '0.5.0', database: 'up', migrations: 'applied' });
    expect(health.body.workers).toEqual(['payouts', 'webhooks', 'kyc', 'reconciliation'].map((name) => ({ name, running: true, lastPassAt: expect.any(String) })));
    for (const w of health.body.workers) expect(Date.now() - Date.parse(w.lastPassAt)).toBeLessThan(5_000);
    expect((await service.call('GET', '/health')).status).toBe(401);
  });
});
