import { randomUUID } from 'node:crypto';
import { gql, subscribe } from '../support/graphql-client';
import { eventually } from '../support/test-service';
import { startTestService, type TestService } from '../support/test-service';

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

describe('GraphQL refuses hostile strings with validation_error, never internal_error', () => {
  let service: TestService;
  let key: string;
  beforeAll(async () => {
    service = await startTestService({ WORKER_ENABLED: 'false', WEBHOOK_WORKER_ENABLED: 'false' });
    ({ apiKey: key } = await service.newTenant());
  });
  afterAll(() => service.close());

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
