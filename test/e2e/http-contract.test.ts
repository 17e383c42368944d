import { randomUUID } from 'node:crypto';
import { moneyOutBody, startTestService, type TestService } from '../support/test-service';

describe('HTTP contract', () => {
  let service: TestService;
  let apiKey: string;
  let tenantId: string;
  beforeAll(async () => {
    service = await startTestService({ WORKER_ENABLED: 'false' });
    ({ apiKey, tenantId } = await service.newTenant());
  });
  afterAll(() => service.close());

  const shapeA = (status: number, code: string) => ({
    statusCode: status, code, message: expect.any(String),
    details: code === 'validation_error' ? { requestId: expect.any(String), fields: expect.any(Array) } : { requestId: expect.any(String) },
  });
  const rows = async () => {
    const conn = service.database.orm.em.fork().getConnection();
    const [p] = await conn.execute('select count(*)::int as n from payments where tenant_id = ?', [tenantId]);
    const [k] = await conn.execute('select count(*)::int as n from idempotency_keys where tenant_id = ?', [tenantId]);
    return [p!.n, k!.n];
  };
  const post = (rawBody: string, headers: Record<string, string> = {}) =>
    service.call('POST', '/v1/payments/moneyout', { apiKey, rawBody, headers: { 'idempotency-key': randomUUID(), ...headers } });

  it('answers every bad input in shape A, never 500, and writes nothing', async () => {
    const before = await rows();
    const cases: [Promise<Awaited<ReturnType<typeof post>>>, number, string][] = [
      [post('{"fiatAmount": 15'), 400, 'validation_error'],
      [post('[1, 2]'), 400, 'validation_error'],
      [post('"a string"'), 400, 'validation_error'],
      [post(JSON.stringify({ padding: 'x'.repeat(2 * 1024 * 1024) })), 413, 'payload_too_large'],
      [post(JSON.stringify(moneyOutBody({ fiatAmount: true }))), 400, 'validation_error'],
      [post(JSON.stringify(moneyOutBody({ country: 254 }))), 400, 'validation_error'],
      [post(JSON.stringify(moneyOutBody({ surprise: 1 }))), 400, 'validation_error'],
      [post(JSON.stringify(moneyOutBody({ fiatAmount: 0 }))), 400, 'validation_error'],
      [post(JSON.stringify(moneyOutBody({ fiatAmount: -5 }))), 400, 'validation_error'],
      [post(JSON.stringify(moneyOutBody()), { 'idempotency-key': 'not-a-uuid' }), 400, 'validation_error'],
      [service.call('POST', '/v1/payments/moneyout', { apiKey, body: moneyOutBody() }), 400, 'validation_error'],
      [post('hello', { 'content-type': 'text/plain' }), 400, 'validation_error'],
      [post(JSON.stringify(moneyOutBody({ reference: 'ref\u0000x' }))), 400, 'validation_error'],
      [post(JSON.stringify(moneyOutBody({ accountName: 'Jane\u0000' }))), 400, 'validation_error'],
    ];
    for (const [pending, status, code] of cases) {
      const res = await pending;
      expect({ status: res.status, body: res.body }).toEqual({ status, body: shapeA(status, code) });
    }
    expect(await rows()).toEqual(before);
  });

  it.each([
    ['/v1/payments/%E0%A4%A', 400], ['/v1/payments/..%2f..%2fetc%2fpasswd', 404], [`/v1/payments/pay_${'x'.repeat(5000)}`, 400],
    ['/v1/payments/pay_00000000000000000000000000', 404], ['/no/such/route', 404],
    ['/v1/payments/%00', 400], ['/tx/transferRequests/%00', 400], ['/v1/webhooks/events?entityId=%00', 400],
  ])('GET %s is shape A %i', async (path, status) => {
    const res = await service.call('GET', path, { apiKey });
    expect(res.status).toBe(status);
    expect(res.body).toEqual(shapeA(status, status === 404 ? 'not_found' : 'validation_error'));
    expect(res.text).not.toMatch(/at .*\.ts:\d+|stack|SELECT|select /i);
  });

  it.each([
    [undefined, 401, 'unauthorized'], ['Bearer', 401, 'unauthorized'], ['Basic abc', 401, 'unauthorized'],
    [`Bearer sk_sandbox_${'A'.repeat(40)}`, 401, 'unauthorized'], ['Bearer sk_live_short', 401, 'unauthorized'],
  ])('Authorization %p is %i', async (header, status, code) => {
    const res = await service.call('GET', '/v1/balances', { headers: header ? { authorization: header } : {} });
    expect(res.status).toBe(status);
    expect(res.body).toEqual(shapeA(status, code));
  });

  it('forbids an admin key on issuer routes (403)', async () => {
    const res = await service.call('POST', '/v1/payments/moneyout', { apiKey: await service.newAdminKey(), body: moneyOutBody(), headers: { 'idempotency-key': randomUUID() } });
    expect(res.body).toEqual(shapeA(403, 'forbidden'));
  });

  it('quotes FX (every quote field plus quoteId), locks the quoted rate, and refuses expired quotes', async () => {
    const now = Math.floor(Date.now() / 1000);
    const quote = await service.call('GET', '/fx/convert?amount=1500&sourceCurrency=KES&destinationCurrency=USDC', { apiKey });
    expect(quote.body).toEqual({ convertedAmount: 12.115416, exchangeRate: '129.25', payoutFee: '0.510000', expiryTimestamp: expect.any(Number), quoteId: expect.stringMatching(/^quo_/) });
    expect(quote.body.expiryTimestamp - now).toBeGreaterThanOrEqual(59);
    expect(quote.body.expiryTimestamp - now).toBeLessThanOrEqual(61);
    expect((await service.call('GET', '/fx/convert?amount=0.001&sourceCurrency=KES&destinationCurrency=USDC', { apiKey })).body).toEqual(shapeA(400, 'validation_error'));
    const unsupported = await service.call('GET', '/fx/convert?amount=10&sourceCurrency=ZAR&destinationCurrency=USDC&country=KE', { apiKey });
    expect(unsupported.status).toBe(422);
    expect(unsupported.body).toEqual({ error: 422, message: expect.any(String), details: { requestId: expect.any(String) }, code: 'unsupported_corridor' });

    const locked = await service.call('POST', '/v1/payments/moneyout', { apiKey, body: moneyOutBody({ quoteId: quote.body.quoteId }), headers: { 'idempotency-key': randomUUID() } });
    expect(locked.status).toBe(201);
    expect(locked.body.exchangeRate).toBe('129.25');
    const unknown = await service.call('POST', '/v1/payments/moneyout', { apiKey, body: moneyOutBody({ quoteId: 'quo_nope' }), headers: { 'idempotency-key': randomUUID() } });
    expect(unknown.body).toEqual(shapeA(400, 'validation_error'));
    const other = await service.newTenant();
    const foreign = await service.call('POST', '/v1/payments/moneyout', { apiKey: other.apiKey, body: moneyOutBody({ quoteId: quote.body.quoteId }), headers: { 'idempotency-key': randomUUID() } });
    expect(foreign.body).toEqual(shapeA(400, 'validation_error'));

    const later = await startTestService({ WORKER_ENABLED: 'false' }, { clock: { now: () => new Date(Date.now() + 61_000) } });
    try {
      const expired = await later.call('POST', '/v1/payments/moneyout', { apiKey, body: moneyOutBody({ quoteId: quote.body.quoteId }), headers: { 'idempotency-key': randomUUID() } });
      expect(expired.body).toEqual(shapeA(422, 'quote_expired'));
    } finally {
      await later.close();
    }
  });

  it('documents every registered route in OpenAPI 3.1, version 0.5.0, with offline docs', async () => {
    const doc = (await service.call('GET', '/openapi.json')).body;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('0.5.0');
    const stack = (service.container.http as unknown as { router: { stack: { route?: { path: string; methods: Record<string, boolean> } }[] } }).router.stack;
    const registered = stack.flatMap((layer) => (layer.route ? Object.keys(layer.route.methods).map((m) => [m, layer.route!.path] as const) : []))
      .filter(([, p]) => p !== '/openapi.json' && !p.startsWith('/docs') && p !== '/graphql' && !p.startsWith('/dashboard'));
    expect(registered.length).toBeGreaterThan(20);
    for (const [method, routePath] of registered) {
      const documented = doc.paths[routePath.replace(/:(\w+)/g, '{$1}')]?.[method];
      expect({ method, routePath, documented: Boolean(documented) }).toEqual({ method, routePath, documented: true });
      expect(Object.keys(documented.responses).some((s) => s.startsWith('2'))).toBe(true);
    }
    const docs = await fetch(`${service.baseUrl}/docs/`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('swagger-ui');
    expect((await fetch(`${service.baseUrl}/docs/swagger-ui.css`)).status).toBe(200);
  });

  it('answers health probes without a key', async () => {
    expect((await service.call('GET', '/livez')).body).toEqual({ status: 'ok' });
    // Screening details (docs/decisions.md § Screening) are warnings only: the instance stays ready without a list.
    expect((await service.call('GET', '/readyz')).body).toEqual({
      status: 'ok', database: 'up', migrations: 'applied', screening: { lists: expect.any(Array), warnings: expect.any(Array) },
    });
    expect((await service.call('GET', '/health')).status).toBe(401);
    const health = (await service.call('GET', '/health', { apiKey })).body;
    expect(health).toMatchObject({ status: 'ok', version: '0.5.0' });
    expect(health.workers.map((w: { name: string; running: boolean }) => [w.name, w.running])).toEqual([['payouts', false], ['webhooks', true], ['kyc', false], ['reconciliation', false]]);
  });
});
