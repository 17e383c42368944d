import { startTestService, type TestService } from '../support/test-service';

type Json = Record<string, any>;

/** Every schema object reachable under `node` (properties, items, unions), with where it sits. */
function* schemasIn(node: unknown, where: string): Generator<[string, Json]> {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return;
  const schema = node as Json;
  yield [where, schema];
  for (const [name, field] of Object.entries(schema.properties ?? {})) yield* schemasIn(field, `${where}.${name}`);
  if (schema.items) yield* schemasIn(schema.items, `${where}[]`);
  for (const key of ['allOf', 'anyOf', 'oneOf']) for (const part of schema[key] ?? []) yield* schemasIn(part, where);
}

/** The OpenAPI document teaches (docs/api.md): descriptions, examples, headers, servers, webhooks. */
describe('an OpenAPI document that teaches', () => {
  let service: TestService;
  let doc: Json;
  let operations: [string, Json][];
  beforeAll(async () => {
    service = await startTestService({ WORKER_ENABLED: 'false', WEBHOOK_WORKER_ENABLED: 'false' });
    doc = (await service.call('GET', '/openapi.json')).body;
    operations = Object.entries(doc.paths as Json).flatMap(([path, ops]) => Object.entries(ops as Json).map(([m, op]) => [`${m} ${path}`, op as Json] as [string, Json]));
  });
  afterAll(() => service.close());

  it('describes every operation, parameter and property', () => {
    const missing: string[] = [];
    for (const [name, op] of operations) {
      if (!op.description) missing.push(name);
      for (const p of op.parameters ?? []) if (!p.description) missing.push(`${name} ${p.in} ${p.name}`);
    }
    for (const [id, schema] of Object.entries(doc.components.schemas as Json)) {
      for (const [where, s] of schemasIn(schema, id)) {
        for (const [field, f] of Object.entries((s.properties ?? {}) as Json)) if (!f.description && !f.$ref) missing.push(`${where}.${field}`);
      }
    }
    expect(missing).toEqual([]);
    expect(operations.length).toBeGreaterThanOrEqual(38);
  });

  it('gives every request and response body a whole-object example, with real-looking values', () => {
    const bodies = operations.flatMap(([name, op]) => [
      ...Object.values(op.requestBody?.content ?? {}).map((m) => [`${name} request`, m] as [string, Json]),
      ...Object.entries(op.responses).flatMap(([status, r]) => Object.values((r as Json).content ?? {}).map((m) => [`${name} ${status}`, m] as [string, Json])),
    ]);
    expect(bodies.filter(([, m]) => m.example === undefined).map(([n]) => n)).toEqual([]);
    const text = JSON.stringify(doc);
    expect(text).not.toMatch(/9007199254740991/);
    // Every example date is of this decade, never a regex-generated 4312-02-29.
    const years = [...text.matchAll(/"(\d{4})-\d{2}-\d{2}T/g)].map((m) => Number(m[1]));
    expect(years.length).toBeGreaterThan(20);
    expect(years.filter((y) => y < 2020 || y > 2030)).toEqual([]);
    const payment = doc.components.schemas.Payment.example;
    expect(payment).toMatchObject({ id: expect.stringMatching(/^pay_[0-9A-Z]{26}$/), fiatAmount: '1500.00', destinationCurrency: 'KES', amountStablecoin: expect.stringMatching(/^\d+\.\d{6}$/) });
  });

  it("shows what each answer returns: a money-out's 201 is a payment just created, initiated", () => {
    const created = doc.paths['/v1/payments/moneyout'].post.responses['201'].content['application/json'].example;
    const payment = doc.components.schemas.Payment;
    // Every field of the Payment schema, as a new payment has them: no provider reference, no failure, updated when created.
    expect(Object.keys(created).sort()).toEqual(Object.keys(payment.properties).sort());
    expect(created).toMatchObject({ status: 'initiated', providerRef: null, failureReason: null, failureCode: null, updatedAt: created.createdAt });
    expect(payment.properties.status.enum).toContain(created.status);
    // GET and the list still show the schema's own example (a payment at any stage).
    expect(doc.paths['/v1/payments/{paymentId}'].get.responses['200'].content['application/json'].example).toEqual(payment.example);
  });

  it('declares the headers integrators rely on', () => {
    for (const [name, op] of operations) {
      for (const [status, response] of Object.entries(op.responses as Json)) {
        const headers = Object.keys((response as Json).headers ?? {});
        expect({ name, status, requestId: headers.includes('Request-Id') }).toEqual({ name, status, requestId: true });
        if (status === '429') expect({ name, retryAfter: headers.includes('Retry-After') }).toEqual({ name, retryAfter: true });
        if (op.security?.length && status === '200') expect({ name, rateLimit: headers.includes('RateLimit') && headers.includes('RateLimit-Policy') }).toEqual({ name, rateLimit: true });
      }
    }
    const listPayments = doc.paths['/v1/payments'].get.responses['200'].headers;
    expect(Object.keys(listPayments)).toContain('Link');
    expect(Object.keys(doc.paths['/v1/payments/moneyout'].post.responses['201'].headers)).toContain('Idempotent-Replayed');
    expect(Object.keys(doc.paths['/v1/payments/moneyout'].post.responses['409'].headers)).toContain('Retry-After');
    expect(Object.keys(doc.components.headers).sort()).toEqual(['Idempotent-Replayed', 'Link', 'RateLimit', 'RateLimit-Policy', 'Request-Id', 'Retry-After']);
  });

  it('has servers, ordered and described tags, and a webhooks section with each event body', () => {
    expect(doc.servers.length).toBeGreaterThan(0);
    expect(doc.tags[0]).toMatchObject({ name: 'Payments', description: expect.any(String) });
    for (const tag of doc.tags) expect(tag.description).toEqual(expect.any(String));
    expect(Object.keys(doc.webhooks).sort()).toEqual([
      'customer.kyc.updated', 'deposit.credited', 'deposit.detected', 'deposit.dropped', 'deposit.held', 'deposit.rejected', 'payment.failed', 'payment.processing', 'payment.refunded', 'payment.succeeded',
      'refund.confirmed', 'refund.failed', 'refund.pending',
    ]);
    const succeeded = doc.webhooks['payment.succeeded'].post;
    const body = succeeded.requestBody.content['application/json'];
    expect(body.example).toMatchObject({ type: 'payment.succeeded', data: { status: 'succeeded' } });
    expect(succeeded.parameters.map((p: Json) => p.name).sort()).toEqual(['service-signature', 'webhook-id', 'webhook-signature', 'webhook-timestamp']);
  });
});
