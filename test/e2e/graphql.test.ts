import { randomBytes, randomUUID } from 'node:crypto';
import { gql, PAYMENT_FIELDS, restPaymentInGraphql } from '../support/graphql-client';
import { moneyOutBody, startTestService, type TestService } from '../support/test-service';

const CREATE = `mutation Create($input: MoneyOutInput!, $key: String!) {
  createMoneyOut(input: $input, idempotencyKey: $key) { replayed payment { ${PAYMENT_FIELDS} } }
}`;
const PAYMENT = `query One($id: ID!) { payment(id: $id) { ${PAYMENT_FIELDS} } }`;
const PAYMENTS = `query List($first: Int!, $after: String, $filter: PaymentFilter) {
  payments(first: $first, after: $after, filter: $filter) {
    edges { cursor node { id status reference } }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  }
}`;

/** The money-out example as GraphQL input: the REST body with the amount as a Decimal string. */
function moneyOutInput(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...moneyOutBody(overrides), fiatAmount: String(overrides.fiatAmount ?? '1500') };
}

describe('GraphQL over HTTP: queries and mutations on the same use cases as REST', () => {
  let service: TestService;
  let key: string;
  let tenantId: string;

  beforeAll(async () => {
    service = await startTestService({ WORKER_ENABLED: 'false', WEBHOOK_WORKER_ENABLED: 'false' });
    ({ apiKey: key, tenantId } = await service.newTenant());
  });
  afterAll(() => service.close());

  it('me: the tenant and the scope of the key in use', async () => {
    const res = await gql(service.baseUrl, '{ me { tenantId keyId scope } }', {}, key);
    expect(res.status).toBe(200);
    expect(res.body.data.me).toEqual({ tenantId, keyId: expect.stringMatching(/^key_/), scope: 'ISSUER' });
  });

  it('createMoneyOut creates a payment whose every field equals REST GET, amounts as decimal strings', async () => {
    const created = await gql(service.baseUrl, CREATE, { input: moneyOutInput(), key: randomUUID() }, key);
    expect(created.body.errors).toBeUndefined();
    const { payment, replayed } = created.body.data.createMoneyOut;
    expect(replayed).toBe(false);
    expect(payment).toMatchObject({ status: 'INITIATED', fiatAmount: '1500.00', providerRef: null, failureReason: null });
    expect(payment.amountStablecoin).toMatch(/^\d+\.\d{6}$/);
    const rest = await service.call('GET', `/v1/payments/${payment.id}`, { apiKey: key });
    const read = await gql(service.baseUrl, PAYMENT, { id: payment.id }, key);
    expect(read.body.data.payment).toEqual(restPaymentInGraphql(rest.body));
  });

  it('the same Idempotency-Key through REST then GraphQL is the same request: a replay of the first payment', async () => {
    const idempotencyKey = randomUUID();
    const body = moneyOutBody();
    const rest = await service.call('POST', '/v1/payments/moneyout', { apiKey: key, body, headers: { 'idempotency-key': idempotencyKey } });
    expect(rest.status).toBe(201);
    const replay = await gql(service.baseUrl, CREATE, { input: { ...body, fiatAmount: '1500.00' }, key: idempotencyKey }, key);
    expect(replay.body.data.createMoneyOut).toEqual({ replayed: true, payment: restPaymentInGraphql(rest.body) });
    const again = await gql(service.baseUrl, CREATE, { input: { ...body, fiatAmount: '1500' }, key: idempotencyKey }, key);
    expect(again.body.data.createMoneyOut.replayed).toBe(true);
  });

  it('refuses a reused key with another input, a duplicate reference, and invalid input, with the REST codes', async () => {
    const idempotencyKey = randomUUID();
    const input = moneyOutInput();
    await gql(service.baseUrl, CREATE, { input, key: idempotencyKey }, key);
    const reused = await gql(service.baseUrl, CREATE, { input: { ...input, fiatAmount: '1600' }, key: idempotencyKey }, key);
    expect(reused.body.errors[0].extensions.code).toBe('idempotency_key_reused');
    const duplicate = await gql(service.baseUrl, CREATE, { input, key: randomUUID() }, key);
    expect(duplicate.body.errors[0].extensions.code).toBe('duplicate_reference');
    const etb = await gql(service.baseUrl, CREATE, { input: moneyOutInput({ destinationCurrency: 'ETB' }), key: randomUUID() }, key);
    expect(etb.body.errors[0]).toMatchObject({ extensions: { code: 'validation_error' }, message: expect.stringContaining('input.destinationCurrency') });
    const badKey = await gql(service.baseUrl, CREATE, { input: moneyOutInput(), key: 'not-a-uuid' }, key);
    expect(badKey.body.errors[0].extensions.code).toBe('validation_error');
    const badCode = await gql(service.baseUrl, CREATE, { input: moneyOutInput({ paymentCode: 'NOPE' }), key: randomUUID() }, key);
    expect(badCode.body.errors[0].extensions.code).toBe('validation_error');
    const badEnum = await gql(service.baseUrl, CREATE, { input: moneyOutInput({ paymentMethod: 'CASH' }), key: randomUUID() }, key);
    expect(badEnum.status).toBe(400);
    expect(badEnum.body.errors[0].extensions).toEqual({ code: 'validation_error' });
  });

  it('payment(id) of another tenant is null with not_found in errors, never forbidden; the rest of data stays', async () => {
    const other = await service.newTenant();
    const created = await service.call('POST', '/v1/payments/moneyout', { apiKey: other.apiKey, body: moneyOutBody(), headers: { 'idempotency-key': randomUUID() } });
    const res = await gql(service.baseUrl, PAYMENT, { id: created.body.id }, key);
    expect(res.body.data).toEqual({ payment: null });
    expect(res.body.errors[0]).toMatchObject({ extensions: { code: 'not_found' }, path: ['payment'] });
    expect(res.body.errors[0].extensions.stacktrace).toBeUndefined();
  });

  it('payments: a Relay connection, newest first, paged by cursor and filtered, tenant-scoped', async () => {
    const { apiKey } = await service.newTenant();
    const refs = ['page-a', 'page-b', 'page-c'].map((r) => `${r}-${randomUUID()}`);
    for (const reference of refs) {
      const res = await service.call('POST', '/v1/payments/moneyout', { apiKey, body: moneyOutBody({ reference }), headers: { 'idempotency-key': randomUUID() } });
      expect(res.status).toBe(201);
    }
    const first = await gql(service.baseUrl, PAYMENTS, { first: 2 }, apiKey);
    const page1 = first.body.data.payments;
    expect(page1.edges.map((e: any) => e.node.reference)).toEqual([refs[2], refs[1]]);
    expect(page1.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false, startCursor: page1.edges[0].cursor, endCursor: page1.edges[1].cursor });
    const second = await gql(service.baseUrl, PAYMENTS, { first: 2, after: page1.pageInfo.endCursor }, apiKey);
    expect(second.body.data.payments.edges.map((e: any) => e.node.reference)).toEqual([refs[0]]);
    expect(second.body.data.payments.pageInfo.hasNextPage).toBe(false);

    const byReference = await gql(service.baseUrl, PAYMENTS, { first: 10, filter: { reference: refs[1] } }, apiKey);
    expect(byReference.body.data.payments.edges.map((e: any) => e.node.reference)).toEqual([refs[1]]);
    const none = await gql(service.baseUrl, PAYMENTS, { first: 10, filter: { status: ['SUCCEEDED'], paymentMethod: ['MOMO'] } }, apiKey);
    expect(none.body.data.payments.edges).toEqual([]);
    const future = await gql(service.baseUrl, PAYMENTS, { first: 10, filter: { createdFrom: new Date(Date.now() + 60_000).toISOString() } }, apiKey);
    expect(future.body.data.payments.edges).toEqual([]);
    const kes = await gql(service.baseUrl, PAYMENTS, { first: 10, filter: { destinationCurrency: ['KES'], status: ['INITIATED'] } }, apiKey);
    expect(kes.body.data.payments.edges).toHaveLength(3);

    for (const [variables, field] of [[{ first: 0 }, 'first'], [{ first: 101 }, 'first'], [{ first: 5, after: 'garbage' }, 'after']] as const) {
      const bad = await gql(service.baseUrl, PAYMENTS, variables, apiKey);
      expect(bad.body.errors[0].extensions).toEqual({ code: 'validation_error', details: { field } });
    }
  });

  it('fxQuote: the stored quote with exact decimal strings; REST codes for refusals', async () => {
    const q = `query Q($amount: Decimal!, $country: Country) {
      fxQuote(amount: $amount, sourceCurrency: KES, destinationCurrency: USDC, country: $country) {
        id convertedAmount exchangeRate payoutFee expiryTimestamp expiresAt sourceCurrency destinationCurrency paymentMethod
      }
    }`;
    const res = await gql(service.baseUrl, q, { amount: '1500' }, key);
    expect(res.body.errors).toBeUndefined();
    const quote = res.body.data.fxQuote;
    expect(quote).toMatchObject({ id: expect.stringMatching(/^quo_/), sourceCurrency: 'KES', destinationCurrency: 'USDC', paymentMethod: 'MOMO' });
    expect(quote.convertedAmount).toMatch(/^\d+\.\d+$/);
    expect(quote.expiryTimestamp).toBe(Math.floor(Date.parse(quote.expiresAt) / 1000));
    const rest = await service.call('GET', '/fx/convert?amount=1500&sourceCurrency=KES&destinationCurrency=USDC', { apiKey: key });
    expect(quote.exchangeRate).toBe(rest.body.exchangeRate);
    expect(Number(quote.convertedAmount)).toBe(rest.body.convertedAmount);
    const mismatch = await gql(service.baseUrl, q, { amount: '1500', country: 'NG' }, key);
    expect(mismatch.body.errors[0].extensions.code).toBe('unsupported_corridor');
    const tiny = await gql(service.baseUrl, q, { amount: '0.001' }, key);
    expect(tiny.body.errors[0].extensions.code).toBe('validation_error');
  });

  it('authentication: no key or a bad key is 401 unauthorized, an admin key 403 forbidden', async () => {
    const none = await gql(service.baseUrl, '{ me { tenantId } }');
    expect(none.status).toBe(401);
    expect(none.body.errors[0].extensions).toEqual({ code: 'unauthorized' });
    const bad = await gql(service.baseUrl, '{ me { tenantId } }', {}, 'sk_sandbox_000000000000000000000000000000000000');
    expect(bad.status).toBe(401);
    const admin = await gql(service.baseUrl, '{ me { tenantId } }', {}, await service.newAdminKey());
    expect(admin.status).toBe(403);
    expect(admin.body.errors[0].extensions.code).toBe('forbidden');
  });

  it('protections: a query deeper than the depth limit is refused as validation_error; batches are refused', async () => {
    const deep = '{ __type(name: "Query") { fields { type { ofType { ofType { ofType { ofType { name } } } } } } } }';
    const res = await gql(service.baseUrl, deep, {}, key);
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ extensions: { code: 'validation_error' }, message: expect.stringContaining('depth limit of 6') });
    const aliases = `{ ${Array.from({ length: 20 }, (_, i) => `a${i}: me { tenantId }`).join(' ')} }`;
    expect((await gql(service.baseUrl, aliases, {}, key)).body.errors[0].extensions.code).toBe('validation_error');
    const batch = await fetch(`${service.baseUrl}/graphql`, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify([{ query: '{ me { tenantId } }' }, { query: '{ me { keyId } }' }]),
    });
    expect(batch.status).toBe(400);
    const syntax = await gql(service.baseUrl, '{ me { tenantId }', {}, key);
    expect(syntax.body.errors[0].extensions.code).toBe('validation_error');
  });
});

describe('GraphQL in production', () => {
  let service: TestService;
  beforeAll(async () => {
    // Production refuses guessable secrets, such as the suites' default webhook key of 32 equal bytes.
    service = await startTestService({
      NODE_ENV: 'production', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false', WORKER_ENABLED: 'false', WEBHOOK_WORKER_ENABLED: 'false',
      WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'),
    });
  });
  afterAll(() => service.close());

  it('refuses introspection and shows no stack traces', async () => {
    const { apiKey } = await service.newTenant('0');
    const res = await gql(service.baseUrl, '{ __schema { queryType { name } } }', {}, apiKey);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions).toEqual({ code: 'validation_error' });
    const missing = await gql(service.baseUrl, '{ payment(id: "pay_none") { id } }', {}, apiKey);
    expect(missing.body.errors[0].extensions).toEqual({ code: 'not_found' });
  });
});
