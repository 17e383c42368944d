import { startTestService, type TestService } from '../support/test-service';

describe('operations: rate limits, metrics, security headers', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ RATE_LIMIT_PER_MINUTE: '3' });
  });
  afterAll(() => service.close());

  it('refuses the 4th request of a minute with 429 shape A and rate-limit headers, per key', async () => {
    const { apiKey } = await service.newTenant();
    const first = await service.call('GET', '/v1/balances', { apiKey });
    expect(first.headers.get('ratelimit-policy')).toBe('3;w=60');
    expect(first.headers.get('ratelimit')).toMatch(/^limit=3, remaining=2, reset=\d+$/);
    await service.call('GET', '/v1/balances', { apiKey });
    await service.call('GET', '/v1/balances', { apiKey });
    const refused = await service.call('GET', '/v1/balances', { apiKey });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ statusCode: 429, code: 'rate_limited', message: expect.any(String) });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const other = await service.newTenant();
    expect((await service.call('GET', '/v1/balances', { apiKey: other.apiKey })).status).toBe(200);
    expect((await service.call('GET', '/livez')).status).toBe(200);
  });

  it('recovers when the window has passed', async () => {
    const { apiKey } = await service.newTenant();
    for (let i = 0; i < 3; i++) await service.call('GET', '/v1/balances', { apiKey });
    expect((await service.call('GET', '/v1/balances', { apiKey })).status).toBe(429);
    await service.database.orm.em.getConnection().execute('update rate_limits set expire = 0');
    expect((await service.call('GET', '/v1/balances', { apiKey })).status).toBe(200);
  });

  it('honours a tenant override', async () => {
    const admin = await service.newAdminKey();
    const tenant = await service.call('POST', '/v1/admin/tenants', { apiKey: admin, body: { name: 'Big issuer', rateLimitPerMinute: 10 } });
    const key = await service.call('POST', `/v1/admin/tenants/${tenant.body.tenantId}/api-keys`, { apiKey: admin, body: { scope: 'issuer' } });
    const res = await service.call('GET', '/v1/balances', { apiKey: key.body.apiKey });
    expect(res.headers.get('ratelimit-policy')).toBe('10;w=60');
  });

  it('serves Prometheus metrics to admin keys only', async () => {
    const admin = await service.newAdminKey();
    const { apiKey } = await service.newTenant();
    expect((await service.call('GET', '/metrics', { apiKey })).status).toBe(403);
    const res = await fetch(`${service.baseUrl}/metrics`, { headers: { authorization: `Bearer ${admin}` } });
    const text = await res.text();
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(text).toMatch(/http_request_duration_seconds_count\{route="\/v1\/balances",method="GET",status="200"\} \d+/);
    expect(text).toMatch(/work_queue_depth\{queue="webhook_deliveries"\} \d+/);
    expect(text).toContain('payment_transitions_total');
    expect(text).toContain('process_cpu_seconds_total');
  });

  it('sends security headers', async () => {
    const res = await service.call('GET', '/livez');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('strict-transport-security')).toMatch(/max-age=/);
    expect(res.headers.get('x-powered-by')).toBeNull();
  });
});
