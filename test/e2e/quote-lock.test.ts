import { randomUUID } from 'node:crypto';
import { gql } from '../support/graphql-client';
import { moneyOutBody, startTestService, type TestService } from '../support/test-service';

const CREATE = `mutation($input: MoneyOutInput!, $key: String!) {
  createMoneyOut(input: $input, idempotencyKey: $key) { payment { id exchangeRate } replayed }
}`;

/** A quote locks its rate for one money-out of its amount, pair and method, once. */
describe('quoteId: one money-out, once', () => {
  let service: TestService;
  let apiKey: string;
  let tenantId: string;
  beforeAll(async () => {
    service = await startTestService({ WORKER_ENABLED: 'false' });
    ({ apiKey, tenantId } = await service.newTenant());
  });
  afterAll(() => service.close());

  const quote = async (query = 'amount=1500&sourceCurrency=KES&destinationCurrency=USDC'): Promise<string> => {
    const res = await service.call('GET', `/fx/convert?${query}`, { apiKey });
    expect(res.status).toBe(200);
    return res.body.quoteId;
  };
  const pay = (body: Record<string, unknown>, key: string = randomUUID()) =>
    service.call('POST', '/v1/payments/moneyout', { apiKey, body, headers: { 'idempotency-key': key } });
  const paymentsOf = async () =>
    ((await service.database.orm.em.fork().getConnection().execute('select count(*)::int as n from payments where tenant_id = ?', [tenantId])) as { n: number }[])[0]!.n;
  const usedBy = async (quoteId: string) =>
    ((await service.database.orm.em.fork().getConnection().execute('select payment_id from quotes where id = ?', [quoteId])) as { payment_id: string | null }[])[0]!.payment_id;

  it.each([
    ['another amount (10 KES, a 200,000 KES money-out)', 'amount=10&sourceCurrency=KES&destinationCurrency=USDC', { fiatAmount: 200000 }],
    ['another stablecoin', 'amount=1500&sourceCurrency=KES&destinationCurrency=USDC', { sourceCurrency: 'USDT' }],
    ['another payment method', 'amount=1500&sourceCurrency=KES&destinationCurrency=USDC&paymentMethod=MOMO', { paymentMethod: 'TILL', paymentCode: 'MPESA', accountNumber: '123456' }],
  ])('a quote for %s is 400 validation_error naming quoteId, and stays unused', async (_label, query, overrides) => {
    const quoteId = await quote(query);
    const before = await paymentsOf();
    const res = await pay(moneyOutBody({ quoteId, ...overrides }));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ statusCode: 400, code: 'validation_error', message: expect.stringContaining('quoteId'), details: { requestId: expect.any(String), fields: expect.any(Array) } });
    expect(await paymentsOf()).toBe(before);
    expect(await usedBy(quoteId)).toBeNull();
  });

  it('the quoted amount written otherwise ("1500.00" for 1500) is the same amount', async () => {
    const res = await pay(moneyOutBody({ quoteId: await quote(), fiatAmount: '1500.00' }));
    expect(res.status).toBe(201);
  });

  it('the same quote twice with two keys: 201, then 422 quote_already_used on REST and on GraphQL, nothing written', async () => {
    const quoteId = await quote();
    const first = await pay(moneyOutBody({ quoteId }));
    expect(first.status).toBe(201);
    expect(first.body.exchangeRate).toBe('129.25');
    const before = await paymentsOf();
    const second = await pay(moneyOutBody({ quoteId }));
    expect(second.status).toBe(422);
    expect(second.body).toEqual({ statusCode: 422, code: 'quote_already_used', message: expect.any(String), details: { requestId: expect.any(String) } });
    const viaGraphql = await gql(service.baseUrl, CREATE, { input: moneyOutBody({ quoteId }), key: randomUUID() }, apiKey);
    expect(viaGraphql.body.errors[0].extensions.code).toBe('quote_already_used');
    expect(await paymentsOf()).toBe(before);
    expect(await usedBy(quoteId)).toBe(first.body.id);
  });

  it('20 concurrent uses of one quote make exactly one payment', async () => {
    const quoteId = await quote();
    const before = await paymentsOf();
    const results = await Promise.all(Array.from({ length: 20 }, () => pay(moneyOutBody({ quoteId }))));
    expect(results.map((r) => r.status).sort()).toEqual([201, ...Array<number>(19).fill(422)]);
    expect(new Set(results.filter((r) => r.status === 422).map((r) => r.body.code))).toEqual(new Set(['quote_already_used']));
    expect(await paymentsOf()).toBe(before + 1);
  });

  it('an idempotent replay after the quote was used replays the stored 201 (REST and GraphQL)', async () => {
    const quoteId = await quote();
    const key = randomUUID();
    const body = moneyOutBody({ quoteId });
    const first = await pay(body, key);
    expect(first.status).toBe(201);
    const replay = await pay(body, key);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    const viaGraphql = await gql(service.baseUrl, CREATE, { input: body, key }, apiKey);
    expect(viaGraphql.body.data.createMoneyOut).toEqual({ payment: { id: first.body.id, exchangeRate: '129.25' }, replayed: true });
  });

  it('a refused money-out leaves its quote unused', async () => {
    const poor = await service.newTenant('0');
    const res = await service.call('GET', '/fx/convert?amount=1500&sourceCurrency=KES&destinationCurrency=USDC', { apiKey: poor.apiKey });
    const quoteId = res.body.quoteId;
    const refused = await service.call('POST', '/v1/payments/moneyout', { apiKey: poor.apiKey, body: moneyOutBody({ quoteId }), headers: { 'idempotency-key': randomUUID() } });
    expect(refused.body.code).toBe('insufficient_balance');
    expect(await usedBy(quoteId)).toBeNull();
  });

  it('documents quote_already_used in OpenAPI', async () => {
    const doc = (await service.call('GET', '/openapi.json')).body;
    expect(doc.paths['/v1/payments/moneyout'].post.responses['422'].description).toContain('quote_already_used');
  });
});
