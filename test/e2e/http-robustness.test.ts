import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { moneyOutBody, startTestService, type CallResult, type TestService } from '../support/test-service';

const shapeA = (statusCode: number, code: string) => ({
  statusCode, code, message: expect.any(String),
  details: code === 'validation_error' ? { requestId: expect.any(String), fields: expect.any(Array) } : { requestId: expect.any(String) },
});
const LEAK = /at .*\.[jt]s:\d+|stack|select |insert |DriverException|node_modules/i;

/** Asserts a response is exactly error shape A with `status` and `code`, as JSON, leaking nothing. */
function expectShapeA(res: CallResult, status: number, code: string): void {
  expect({ status: res.status, body: res.body }).toEqual({ status, body: shapeA(status, code) });
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(res.text).not.toMatch(LEAK);
}

describe('HTTP robustness', () => {
  let service: TestService;
  let apiKey: string;
  let tenantId: string;

  beforeAll(async () => {
    service = await startTestService({ WORKER_ENABLED: 'false' });
    ({ apiKey, tenantId } = await service.newTenant());
    // one real payment, so the row counts below count something
    const res = await moneyOut(JSON.stringify(moneyOutBody()));
    expect(res.status).toBe(201);
  });
  afterAll(() => service.close());

  const moneyOut = (rawBody: string, headers: Record<string, string> = {}, key: string | undefined = apiKey) =>
    service.call('POST', '/v1/payments/moneyout', { apiKey: key, rawBody, headers: { 'idempotency-key': randomUUID(), ...headers } });

  const rows = async () => {
    const conn = service.database.orm.em.fork().getConnection();
    const [p] = await conn.execute('select count(*)::int as n from payments where tenant_id = ?', [tenantId]);
    const [k] = await conn.execute('select count(*)::int as n from idempotency_keys where tenant_id = ?', [tenantId]);
    return { payments: p!.n, idempotencyKeys: k!.n };
  };

  describe('bad input writes nothing', () => {
    let before: { payments: number; idempotencyKeys: number };
    beforeAll(async () => {
      before = await rows();
      expect(before).toEqual({ payments: 1, idempotencyKeys: 1 });
    });

    const body = (o: Record<string, unknown>) => JSON.stringify(moneyOutBody(o));
    it.each([
      ['malformed JSON', 400, 'validation_error', '{"fiatAmount": 15', {}],
      ['a JSON array', 400, 'validation_error', '[1, 2]', {}],
      ['an empty JSON array', 400, 'validation_error', '[]', {}],
      ['a JSON string', 400, 'validation_error', '"a string"', {}],
      ['JSON null', 400, 'validation_error', 'null', {}],
      ['an empty body', 400, 'validation_error', '', {}],
      ['a 2 MB body', 413, 'payload_too_large', JSON.stringify({ padding: 'x'.repeat(2 * 1024 * 1024) }), {}],
      ['a text/plain body', 400, 'validation_error', 'hello', { 'content-type': 'text/plain' }],
      ['fiatAmount as boolean', 400, 'validation_error', body({ fiatAmount: true }), {}],
      ['fiatAmount as object', 400, 'validation_error', body({ fiatAmount: { $gt: 0 } }), {}],
      ['fiatAmount overflowing to Infinity', 400, 'validation_error', body({}).replace('"fiatAmount":1500', '"fiatAmount":1e400'), {}],
      ['fiatAmount "1e3"', 400, 'validation_error', body({ fiatAmount: '1e3' }), {}],
      ['fiatAmount 1e21', 400, 'validation_error', body({ fiatAmount: 1e21 }), {}],
      ['fiatAmount 0', 400, 'validation_error', body({ fiatAmount: 0 }), {}],
      ['fiatAmount -5', 400, 'validation_error', body({ fiatAmount: -5 }), {}],
      ['country as number', 400, 'validation_error', body({ country: 254 }), {}],
      ['sourceCurrency null', 400, 'validation_error', body({ sourceCurrency: null }), {}],
      ['accountName as number', 400, 'validation_error', body({ accountName: 42 }), {}],
      ['reference as array', 400, 'validation_error', body({ reference: ['a'] }), {}],
      ['a missing required field', 400, 'validation_error', JSON.stringify({ ...moneyOutBody(), paymentCode: undefined }), {}],
      ['an unknown field', 400, 'validation_error', body({ surprise: 1 }), {}],
      ['a __proto__ key', 400, 'validation_error', body({}).replace('{', '{"__proto__":{"admin":true},'), {}],
      ['an over-long accountNumber', 400, 'validation_error', body({ accountNumber: '2'.repeat(35) }), {}],
      ['malformed Idempotency-Key', 400, 'validation_error', body({}), { 'idempotency-key': 'not-a-uuid' }],
      ['Idempotency-Key with a suffix', 400, 'validation_error', body({}), { 'idempotency-key': `${randomUUID()}x` }],
      ['empty Idempotency-Key', 400, 'validation_error', body({}), { 'idempotency-key': '' }],
      ['an unsupported corridor', 422, 'unsupported_corridor', body({ destinationCurrency: 'NGN' }), {}],
    ] as [string, number, string, string, Record<string, string>][])('money-out with %s: %i %s', async (_name, status, code, raw, headers) => {
      expectShapeA(await moneyOut(raw, headers), status, code);
    });

    it('money-out without Idempotency-Key: 400 naming the header', async () => {
      const res = await service.call('POST', '/v1/payments/moneyout', { apiKey, body: moneyOutBody() });
      expectShapeA(res, 400, 'validation_error');
      expect(res.body.message).toContain('Idempotency-Key');
    });

    it.each([
      ['no Authorization header', undefined, 401, 'unauthorized'],
      ['Bearer without a key', 'Bearer', 401, 'unauthorized'],
      ['Basic scheme', 'Basic dXNlcjpwYXNz', 401, 'unauthorized'],
      ['two tokens', 'Bearer sk_sandbox_a sk_sandbox_b', 401, 'unauthorized'],
      ['a well-formed unknown key', `Bearer sk_sandbox_${'A'.repeat(40)}`, 401, 'unauthorized'],
      ['a short live key', 'Bearer sk_live_short', 401, 'unauthorized'],
    ])('money-out with %s (%p): %i %s', async (_name, authorization, status, code) => {
      const headers: Record<string, string> = { 'idempotency-key': randomUUID() };
      if (authorization) headers.authorization = authorization;
      expectShapeA(await service.call('POST', '/v1/payments/moneyout', { body: moneyOutBody(), headers }), status, code);
    });

    it('money-out with an admin key: 403 forbidden', async () => {
      expectShapeA(await moneyOut(JSON.stringify(moneyOutBody()), {}, await service.newAdminKey()), 403, 'forbidden');
    });

    it.each([
      ['GET', '/no/such/route', 404, 'not_found'],
      ['POST', '/v1/payments', 404, 'not_found'],
      ['DELETE', '/v1/payments/moneyout', 404, 'not_found'],
      ['GET', '/v1/payments/%E0%A4%A', 400, 'validation_error'],
      ['GET', '/v1/payments/..%2f..%2fetc', 404, 'not_found'],
      ['GET', '/v1/payments/..%2f..%2fetc%2fpasswd', 404, 'not_found'],
      ['GET', '/v1/payments/pay_00000000000000000000000000', 404, 'not_found'],
      ['GET', '/fx/convert?amount=1&amount=2&sourceCurrency=KES&destinationCurrency=USDC', 400, 'validation_error'],
      ['GET', '/fx/convert?amount[x]=1&sourceCurrency=KES&destinationCurrency=USDC', 400, 'validation_error'],
    ])('%s %s: %i %s', async (method, route, status, code) => {
      expectShapeA(await service.call(method, route, { apiKey }), status, code);
    });

    it('GET /v1/payments/<5000-character id>: 400 validation_error', async () => {
      expectShapeA(await service.call('GET', `/v1/payments/${'p'.repeat(5000)}`, { apiKey }), 400, 'validation_error');
      expectShapeA(await service.call('GET', `/v1/payments/pay_${'0'.repeat(5000)}`, { apiKey }), 400, 'validation_error');
    });

    it('a NUL byte in a path id, query or body string is refused as a client error, not a 500', async () => {
      const key = randomUUID();
      const cases: [string, Promise<CallResult>][] = [
        ['GET /v1/payments/%00', service.call('GET', '/v1/payments/%00', { apiKey })],
        ['GET /v1/payments/pay_%00', service.call('GET', '/v1/payments/pay_%00', { apiKey })],
        ['GET /v1/customers/%00', service.call('GET', '/v1/customers/%00', { apiKey })],
        ['GET /v1/webhooks/events?entityId=%00', service.call('GET', '/v1/webhooks/events?entityId=%00', { apiKey })],
        ['money-out reference with NUL', moneyOut(body({ reference: 'ref\u0000x' }))],
        ['money-out accountName with NUL', moneyOut(body({ accountName: 'Jane\u0000' }))],
        ['money-out quoteId with NUL', moneyOut(body({ quoteId: 'quo_\u0000' }), { 'idempotency-key': key })],
      ];
      const outcomes = await Promise.all(cases.map(async ([name, pending]) => {
        const res = await pending;
        return { name, status: res.status, body: res.body };
      }));
      expect(outcomes).toEqual(cases.map(([name]) => ({ name, status: 400, body: shapeA(400, 'validation_error') })));
    });

    it('nothing was written by any of the requests above', async () => {
      expect(await rows()).toEqual(before);
    });
  });

  describe('GET /fx/convert and quote locking', () => {
    let fxKey: string;
    let dir: string;
    let other: TestService;
    let offset = 0;
    const base = Date.now();

    beforeAll(async () => {
      ({ apiKey: fxKey } = await service.newTenant());
      // A second replica on the same database with another KES rate and a clock the test moves.
      dir = mkdtempSync(path.join(os.tmpdir(), 'fx-robustness-'));
      const catalog = JSON.parse(readFileSync(path.resolve(__dirname, '../../data/corridors.json'), 'utf8'));
      catalog.rates.KES.USDC = '100';
      writeFileSync(path.join(dir, 'corridors.json'), JSON.stringify(catalog));
      other = await startTestService({ WORKER_ENABLED: 'false', CATALOG_PATH: path.join(dir, 'corridors.json') }, { clock: { now: () => new Date(base + offset) } });
    });
    afterAll(async () => {
      await other.close();
      rmSync(dir, { recursive: true, force: true });
    });

    const pay = (svc: TestService, o: Record<string, unknown> = {}, key = fxKey) =>
      svc.call('POST', '/v1/payments/moneyout', { apiKey: key, body: moneyOutBody(o), headers: { 'idempotency-key': randomUUID() } });

    it('answers every FX quote field plus quoteId, expiring 60 s from now', async () => {
      const now = Date.now() / 1000;
      const res = await service.call('GET', '/fx/convert?amount=1500&sourceCurrency=KES&destinationCurrency=USDC', { apiKey: fxKey });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        convertedAmount: 12.115416, exchangeRate: '129.25', payoutFee: '0.510000',
        expiryTimestamp: expect.any(Number), quoteId: expect.stringMatching(/^quo_[0-9A-HJKMNP-TV-Z]{26}$/),
      });
      expect(Number.isInteger(res.body.expiryTimestamp)).toBe(true);
      expect(Math.abs(res.body.expiryTimestamp - (now + 60))).toBeLessThanOrEqual(2);
    });

    it('sets expiryTimestamp from the clock exactly: now + QUOTE_TTL_SECONDS, in Unix seconds', async () => {
      offset = 0;
      const res = await other.call('GET', '/fx/convert?amount=1500&sourceCurrency=KES&destinationCurrency=USDC', { apiKey: fxKey });
      expect(res.body).toMatchObject({ exchangeRate: '100', convertedAmount: 15.51, expiryTimestamp: Math.floor((base + 60_000) / 1000) });
    });

    it.each([
      ['amount=0.001', 400], ['amount=0', 400], ['amount=-1', 400], ['amount=abc', 400], ['amount=1e3', 400], ['amount=0.009', 400],
    ])('%s is shape A %i', async (amount, status) => {
      const res = await service.call('GET', `/fx/convert?${amount}&sourceCurrency=KES&destinationCurrency=USDC`, { apiKey: fxKey });
      expectShapeA(res, status, 'validation_error');
    });

    it('accepts the minimum amount 0.01', async () => {
      const res = await service.call('GET', '/fx/convert?amount=0.01&sourceCurrency=KES&destinationCurrency=USDC', { apiKey: fxKey });
      expect(res.status).toBe(200);
      expect(res.body.convertedAmount).toBe(0.510078); // 0.01 / 129.25 = 0.0000773...; + 0.51, rounded up
    });

    it('refuses an unsupported pair with shape D 422', async () => {
      const res = await service.call('GET', '/fx/convert?amount=10&sourceCurrency=ZAR&destinationCurrency=USDC&country=KE', { apiKey: fxKey });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ error: 422, message: expect.any(String), details: { requestId: expect.any(String) }, code: 'unsupported_corridor' });
    });

    it('locks the quoted rate for a money-out on another replica whose current rate differs', async () => {
      const quote = await service.call('GET', '/fx/convert?amount=1500&sourceCurrency=KES&destinationCurrency=USDC', { apiKey: fxKey });
      offset = Date.now() - base;
      const unlocked = await pay(other);
      expect(unlocked.body).toMatchObject({ status: 'initiated', exchangeRate: '100', amountStablecoin: '15.510000' });
      const locked = await pay(other, { quoteId: quote.body.quoteId });
      expect(locked.status).toBe(201);
      expect(locked.body).toMatchObject({ exchangeRate: '129.25', amountStablecoin: '12.115416', payoutFee: '0.510000' });
      expect(Number(locked.body.amountStablecoin)).toBe(quote.body.convertedAmount);
    });

    it('refuses an unknown quoteId, another tenant\'s quote and a quote for another pair (400)', async () => {
      expectShapeA(await pay(service, { quoteId: 'quo_01JD4ZQ8W0Y8M2V6N3C5B7K9TQ' }), 400, 'validation_error');
      const quote = await service.call('GET', '/fx/convert?amount=1500&sourceCurrency=KES&destinationCurrency=USDT', { apiKey: fxKey });
      expectShapeA(await pay(service, { quoteId: quote.body.quoteId }), 400, 'validation_error'); // USDT quote, USDC payment
      const stranger = await service.newTenant();
      expectShapeA(await pay(service, { quoteId: quote.body.quoteId, sourceCurrency: 'USDT' }, stranger.apiKey), 400, 'validation_error');
      expect((await pay(service, { quoteId: quote.body.quoteId, sourceCurrency: 'USDT' })).status).toBe(201);
    });

    it('honours a quote until its expiry instant and refuses it from then on (422 quote_expired)', async () => {
      offset = 0;
      const quote = await other.call('GET', '/fx/convert?amount=1500&sourceCurrency=KES&destinationCurrency=USDC', { apiKey: fxKey });
      offset = 59_999;
      expect((await pay(other, { quoteId: quote.body.quoteId })).status).toBe(201);
      offset = 60_000;
      expectShapeA(await pay(other, { quoteId: quote.body.quoteId }), 422, 'quote_expired');
      offset = 3_600_000;
      expectShapeA(await pay(other, { quoteId: quote.body.quoteId }), 422, 'quote_expired');
    });
  });
});
