import { randomUUID } from 'node:crypto';
import { gql, subscribe } from '../support/graphql-client';
import { eventually } from '../support/test-service';
import { startTestService, type TestService } from '../support/test-service';
import { solanaTxHash } from '../support/tx-hashes';

const NUL = 'a\u0000b';

/** One operation per field that takes a free string, with the variable that carries it. */
const OPERATIONS: [string, string, Record<string, unknown>][] = [
  ['payment', 'query Q($v: ID!) { payment(id: $v) { id } }', {}],
  ['payments', 'query Q($v: String) { payments(first: 5, filter: { reference: $v }) { edges { cursor } } }', {}],
  ['payments after', 'query Q($v: String) { payments(first: 5, after: $v) { edges { cursor } } }', {}],
  ['transferRequest', 'query Q($v: String!) { transferRequest(reference: $v) { reference } }', {}],
  ['customer', 'query Q($v: ID!) { customer(id: $v) { id } }', {}],
  ['customers after', 'query Q($v: String) { customers(after: $v) { nodes { id } } }', {}],
  ['balanceTransactions after', 'query Q($v: String) { balanceTransactions(after: $v) { nodes { id } } }', {}],
  ['webhookEvents after', 'query Q($v: String) { webhookEvents(after: $v) { nodes { id } } }', {}],
  ['idResolve', 'query Q($v: String!) { idResolve(username: $v, issuer: "issuer_a", wallet_network: Solana) { username } }', {}],
  ['deleteWebhook', 'mutation M($v: ID!) { deleteWebhook(id: $v) }', {}],
  ['retryWebhookEvent', 'mutation M($v: ID!) { retryWebhookEvent(id: $v) { id } }', {}],
  ['createCustomer', `mutation M($v: String!) { createCustomer(input: { externalId: $v, firstName: "A", lastName: "B", country: "KE",
    dateOfBirth: "1990-01-01", idType: PASSPORT, idNumber: "A1234567" }) { id } }`, {}],
  ['legacyPayout', `mutation M($v: String!) { legacyPayout(input: { amount: "10", destination: MoMo, accountName: $v, accountNumber: "254712345678",
    reference: "r-${randomUUID()}", currency: KES, country: KE, code: "MPESA" }) { transactionId } }`, {}],
];

// One service for every block below: none of them changes anything another relies on.
let service: TestService;
let key: string;
beforeAll(async () => {
  service = await startTestService({ WORKER_ENABLED: 'false', WEBHOOK_WORKER_ENABLED: 'false' });
  ({ apiKey: key } = await service.newTenant());
});
afterAll(() => service.close());

describe('GraphQL refuses hostile strings with validation_error, never internal_error', () => {
  it.each(OPERATIONS)('%s: a NUL character in a variable', async (_name, query, extra) => {
    const res = await gql(service.baseUrl, query, { v: NUL, ...extra }, key);
    expect(res.body.errors?.[0]?.extensions?.code).toBe('validation_error');
    expect(res.body.errors[0].message).toMatch(/NUL/);
  });

  it('a NUL character written into the query text', async () => {
    const res = await gql(service.baseUrl, 'query { payment(id: "pay_\\u0000x") { id } }', {}, key);
    expect(res.body.errors?.[0]?.extensions?.code).toBe('validation_error');
  });

  it('over WebSocket too: a subscription whose variables or literals hold a NUL character is refused', async () => {
    for (const [query, variables] of [
      ['subscription S($v: ID) { paymentUpdated(paymentId: $v) { id } }', { v: NUL }],
      ['subscription { paymentUpdated(paymentId: "pay_\\u0000") { id } }', {}],
    ] as const) {
      const live = subscribe(service.baseUrl, key, query, variables);
      try {
        await eventually(async () => (live.errors.length > 0 ? true : undefined));
        expect(JSON.stringify(live.errors[0])).toMatch(/NUL/);
      } finally {
        await live.dispose();
      }
    }
  });

  it.each(OPERATIONS)('%s: a 100,000-character string', async (_name, query, extra) => {
    const res = await gql(service.baseUrl, query, { v: 'x'.repeat(100_000), ...extra }, key);
    const code = res.body.errors?.[0]?.extensions?.code;
    expect(code).not.toBe('internal_error');
    expect(code).toBeDefined();
  });
});

describe('near-miss ids, cursors and amounts are refused or not found on both transports, never internal_error', () => {
  const cursor = (text: string) => Buffer.from(text).toString('base64url');
  const NOT_A_UUID = ['a'.repeat(36), '-'.repeat(36), 'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz'];
  const rest = (method: string, path: string, body?: unknown) => service.call(method, path, { apiKey: key, ...(body ? { body } : {}) });
  const codeOf = async (query: string, variables: Record<string, unknown>) => (await gql(service.baseUrl, query, variables, key)).body.errors?.[0]?.extensions?.code;

  it.each(NOT_A_UUID)('webhook and delivery id %p: 404 in REST, not_found in GraphQL', async (id) => {
    expect((await rest('DELETE', `/v1/webhooks/${id}`)).status).toBe(404);
    expect((await rest('POST', `/v1/webhooks/events/${id}/retry`)).status).toBe(404);
    expect(await codeOf('mutation M($id: ID!) { deleteWebhook(id: $id) }', { id })).toBe('not_found');
    expect(await codeOf('mutation M($id: ID!) { retryWebhookEvent(id: $id) { id } }', { id })).toBe('not_found');
  });

  it.each([
    ['a webhook event cursor whose id is not a uuid', '/v1/webhooks/events', 'webhookEvents', `2024-01-01T00:00:00.000Z|${'a'.repeat(36)}`],
    ['a customer cursor dated 5000 BC', '/v1/customers', 'customers', `-005000-01-01T00:00:00.000Z|cus_${'0'.repeat(26)}`],
    ['a ledger cursor dated 5000 BC', '/v1/balances/transactions', 'balanceTransactions', `-005000-01-01T00:00:00.000Z|ldg_${'0'.repeat(26)}`],
    ['a customer cursor in year 0', '/v1/customers', 'customers', `0000-01-01T00:00:00.000Z|cus_${'0'.repeat(26)}`],
    ['a ledger cursor on 30 February', '/v1/balances/transactions', 'balanceTransactions', `2024-02-30T00:00:00.000Z|ldg_${'0'.repeat(26)}`],
  ])('%s: 400 in REST, validation_error in GraphQL', async (_label, path, field, text) => {
    const res = await rest('GET', `${path}?cursor=${cursor(text)}`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_error');
    expect(await codeOf(`query Q($after: String) { ${field}(after: $after) { nodes { id } } }`, { after: cursor(text) })).toBe('validation_error');
  });

  it.each(['customers', 'balanceTransactions', 'webhookEvents'])('%s: a bad cursor is reported under the argument the caller sent, after', async (field) => {
    const res = await gql(service.baseUrl, `query Q($after: String) { ${field}(after: $after) { nodes { id } } }`, { after: 'not-a-cursor' }, key);
    expect(res.body.errors[0]).toMatchObject({ message: expect.stringMatching(/^after/), extensions: { code: 'validation_error', details: { field: 'after' } } });
  });

  it('a transfer request amount of 10^33 is validation_error on both transports', async () => {
    const input = {
      recipient: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU', amount: `1${'0'.repeat(33)}`, acquirerMerchantName: 'ACQ_1',
      reference: `trq-${randomUUID()}`, merchantID: 'merchant-42',
    };
    const res = await rest('POST', '/tx/createTransferRequest', input);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_error');
    expect(await codeOf('mutation M($input: TransferRequestInput!) { createTransferRequest(input: $input) { link } }', { input })).toBe('validation_error');
  });

  it('an FX quote and an admin deposit of 10^33 are 400, not 500', async () => {
    const fx = await rest('GET', `/fx/convert?amount=1${'0'.repeat(33)}&sourceCurrency=KES&destinationCurrency=USDC`);
    expect(fx.status).toBe(400);
    const admin = await service.newAdminKey();
    const tenant = await service.newTenant('0');
    const deposit = await service.call('POST', `/v1/admin/tenants/${tenant.tenantId}/deposits`, {
      apiKey: admin, body: { currency: 'USDC', amount: `1${'0'.repeat(33)}`, blockchain: 'SOLANA', txHash: solanaTxHash() },
    });
    expect(deposit.status).toBe(400);
    expect(deposit.body.code).toBe('validation_error');
  });
});

describe('oversized, over-deep and malformed requests get a 4xx in a documented shape on both transports', () => {
  const post = async (path: string, raw: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${service.baseUrl}${path}`, {
      method: 'POST', body: raw,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, 'idempotency-key': randomUUID(), ...headers },
    });
    return { status: res.status, body: JSON.parse(await res.text()) };
  };
  const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;

  it.each([[33], [5000], [20000]])('REST: a body field nested %i deep is 400 validation_error', async (n) => {
    const res = await post('/v1/payments/moneyout', `{"fiatAmount":${deep(n)}}`);
    expect(res).toEqual({
      status: 400,
      body: { statusCode: 400, code: 'validation_error', message: expect.stringContaining('nested'), details: { requestId: expect.any(String), fields: [{ path: 'body', message: expect.stringContaining('nested') }] } },
    });
    expect((await post('/v1/payments/moneyout', deep(n))).status).toBe(400);
  });

  it('REST: nesting up to 32 levels reaches the schema, which refuses the type', async () => {
    const res = await post('/v1/payments/moneyout', `{"fiatAmount":${deep(31)}}`);
    expect(res.status).toBe(400);
    expect(res.body.message).not.toMatch(/nested/);
  });

  it('GraphQL: variables nested 5000 deep are 400 validation_error', async () => {
    const res = await post('/graphql', `{"query":"query Q($v: String!) { transferRequest(reference: $v) { reference } }","variables":{"v":${deep(5000)}}}`);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('validation_error');
  });

  it.each([
    ['an unterminated string', '{ me { scope(x: "abc) } }'],
    ['an unclosed selection', '{ me { scope } '],
    ['a lone surrogate escape', '{ webhookEvents(first: "\\ud800") { nodes { id } } }'],
    ['over 1,000 tokens', `{ ${'me { scope } '.repeat(400)}}`],
  ])('GraphQL: %s is 400 validation_error, not 500', async (_label, query) => {
    const res = await post('/graphql', JSON.stringify({ query }));
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('validation_error');
  });

  it('GraphQL: a subscription over HTTP is 400 validation_error pointing at WebSocket', async () => {
    const res = await post('/graphql', JSON.stringify({ query: 'subscription { paymentUpdated { id } }' }));
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ message: expect.stringMatching(/WebSocket/), extensions: { code: 'validation_error' } });
  });

  it('a URL beyond the header limit is 431 in shape A with a JSON body, not a bare status', async () => {
    const res = await fetch(`${service.baseUrl}/v1/balances?x=${'y'.repeat(20_000)}`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(431);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(await res.json()).toEqual({ statusCode: 431, code: 'headers_too_large', message: expect.any(String), details: { requestId: expect.any(String) } });
  });
});
