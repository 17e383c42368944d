import { randomUUID } from 'node:crypto';
import { moneyOutBody, startTestService, type TestService } from '../support/test-service';

type Schema = { $ref?: string; allOf?: Schema[]; properties?: Record<string, Schema>; required?: string[]; enum?: string[] };
type Doc = { paths: Record<string, Record<string, { operationId: string; tags: string[]; responses: Record<string, { content?: Record<string, { schema: Schema }> }> }>>; components: { schemas: Record<string, Schema> } };

/**
 * Errors a typed client can use (docs/api.md § Errors): field-level details on every validation
 * error, the request id in every error body, a `code` in every shape, and OpenAPI unions that a
 * generated client can branch on by `code`.
 */
describe('error details and discriminable error shapes', () => {
  let service: TestService;
  let apiKey: string;
  beforeAll(async () => {
    service = await startTestService({ WORKER_ENABLED: 'false', WEBHOOK_WORKER_ENABLED: 'false' });
    ({ apiKey } = await service.newTenant());
  });
  afterAll(() => service.close());

  const moneyOut = (body: unknown, headers: Record<string, string> = { 'idempotency-key': randomUUID() }) =>
    service.call('POST', '/v1/payments/moneyout', { apiKey, body, headers });

  it('lists every refused body field with its path and message, unknown fields included', async () => {
    const { accountName: _dropped, ...body } = moneyOutBody();
    const res = await moneyOut({ ...body, fiatAmount: 'lots', extra: 1, nickname: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_error');
    const paths = res.body.details.fields.map((f: { path: string }) => f.path).sort();
    expect(paths).toEqual(['body.accountName', 'body.extra', 'body.fiatAmount', 'body.nickname']);
    for (const field of res.body.details.fields) expect(field.message).toEqual(expect.any(String));
    expect(res.body.details.fields.find((f: { path: string }) => f.path === 'body.extra').message).toBe('Unknown field');
  });

  it('names query parameters, list indexes, and a body that is missing or not JSON', async () => {
    const list = await service.call('GET', '/v1/payments?limit=500&status=failed,pending', { apiKey });
    expect(list.body.details.fields.map((f: { path: string }) => f.path).sort()).toEqual(['query.limit', 'query.status.1']);
    const missing = await service.call('POST', '/v1/webhooks/register', { apiKey });
    expect(missing.body.details.fields).toEqual([{ path: 'body', message: expect.any(String) }]);
    const broken = await service.call('POST', '/v1/webhooks/register', { apiKey, rawBody: '{"url":' });
    expect([broken.status, broken.body.details.fields]).toEqual([400, [{ path: 'body', message: 'Not valid JSON' }]]);
  });

  it("carries the use case's own field, in REST's names: body member, header, query parameter", async () => {
    const quote = await moneyOut(moneyOutBody({ quoteId: 'quo_01JD4ZQ8W0Y8M2V6N3C5B7K9TQ' }));
    expect(quote.body.details.fields).toEqual([{ path: 'body.quoteId', message: quote.body.message }]);
    const noKey = await moneyOut(moneyOutBody(), {});
    expect(noKey.body.message).toMatch(/^Idempotency-Key header is required/);
    expect(noKey.body.details.fields).toEqual([{ path: 'header.Idempotency-Key', message: noKey.body.message }]);
    const cursor = await service.call('GET', '/v1/payments?cursor=bm90LWEtY3Vyc29y', { apiKey });
    expect(cursor.body.details.fields).toEqual([{ path: 'query.cursor', message: 'cursor is not a valid cursor' }]);
  });

  it('puts the Request-Id in every error body, keeping a sane incoming X-Request-Id', async () => {
    const mine = `req-${randomUUID()}`;
    const refused = await service.call('GET', '/v1/payments/pay_nope', { apiKey, headers: { 'x-request-id': mine } });
    expect([refused.status, refused.headers.get('request-id'), refused.body.details]).toEqual([404, mine, { requestId: mine }]);
    const made = await service.call('GET', '/v1/payments', { headers: { 'x-request-id': 'has spaces in it' } });
    expect(made.status).toBe(401);
    expect(made.body.details.requestId).toBe(made.headers.get('request-id'));
    expect(made.body.details.requestId).not.toBe('has spaces in it');
    const unknownRoute = await service.call('GET', '/v1/nothing-here', { headers: { 'x-request-id': mine } });
    expect([unknownRoute.status, unknownRoute.body.details.requestId]).toEqual([404, mine]);
  });

  it('gives shapes B, C and D a code beside their own fields', async () => {
    const d = await service.call('GET', '/fx/convert?amount=10&sourceCurrency=ZAR&destinationCurrency=USDC&country=KE', { apiKey });
    expect(d.body).toMatchObject({ error: 422, code: 'unsupported_corridor', details: { requestId: d.headers.get('request-id') } });
    const c = await service.call('POST', '/account/resolve', { apiKey, body: { accountNumber: '0123450000', currency: 'NGN', paymentType: 'bank', bankCode: '058' } });
    expect(c.body).toMatchObject({ error: 'account_not_found', code: 'account_not_found', statusCode: 404 });
  });

  it('declares for every operation error schemas that all carry code, each code in one shape only', async () => {
    const doc = (await service.call('GET', '/openapi.json')).body as Doc;
    const schemas = doc.components.schemas;
    const resolve = (s: Schema): Schema => (s.$ref ? resolve(schemas[s.$ref.split('/').pop()!]!) : s);
    /** The code values a response schema allows, with the shape it is (the component its allOf starts from). */
    const codesOf = (s: Schema): { shape: string; codes: string[] } => {
      const target = resolve(s);
      const shape = (target.allOf ? target.allOf[0]!.$ref! : s.$ref ?? 'inline').split('/').pop()!;
      if (!shape.startsWith('Error')) return { shape, codes: [] };
      const parts = (target.allOf ?? [target]).map(resolve);
      const enums = parts.map((p) => p.properties?.code?.enum).filter((e): e is string[] => Boolean(e));
      expect({ shape, requiredCode: parts.some((p) => p.required?.includes('code')) }).toEqual({ shape, requiredCode: true });
      return { shape, codes: enums[enums.length - 1] ?? [] };
    };
    let checked = 0;
    for (const ops of Object.values(doc.paths)) {
      for (const op of Object.values(ops)) {
        const owner = new Map<string, string>();
        for (const [status, response] of Object.entries(op.responses)) {
          const schema = response.content?.['application/json']?.schema;
          if (!/^[45]/.test(status) || !schema) continue;
          const { shape, codes } = codesOf(schema);
          // A health probe's 503 is its health document, not an error.
          if (codes.length === 0) expect({ op: op.operationId, shape, tags: op.tags }).toEqual({ op: op.operationId, shape, tags: ['Health'] });
          for (const code of codes) {
            expect({ op: op.operationId, code, shape: owner.get(code) ?? shape }).toEqual({ op: op.operationId, code, shape });
            owner.set(code, shape);
          }
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
    const fx = doc.paths['/fx/convert']!.get!.responses;
    expect(Object.fromEntries(Object.entries(fx).filter(([s]) => s !== '200').map(([s, r]) => [s, r.content!['application/json']!.schema.$ref])))
      .toEqual({
        '400': '#/components/schemas/ErrorA400', '401': '#/components/schemas/ErrorA401', '403': '#/components/schemas/ErrorA403',
        '429': '#/components/schemas/ErrorA429', '422': '#/components/schemas/ErrorD422', '503': '#/components/schemas/ErrorD503',
      });
  });
});
