import { randomUUID } from 'node:crypto';
import type { AccountDirectory } from '../../src/core/resolution/resolution-ports';
import { captureLog, type CapturedLog } from '../support/captured-log';
import { PAYMENT_FIELDS } from '../support/graphql-client';
import { moneyOutBody, startTestService, type TestService } from '../support/test-service';

const PAYMENT = `query P($id: ID!) { payment(id: $id) { ${PAYMENT_FIELDS} } }`;
const MERCHANT = 'query M($n: String) { momoResolve(type: PAYBILL, accountNumber: $n) { valid accountName } }';

/** A directory whose merchant lookup fails unexpectedly (an infrastructure fault, not a refusal). */
const failingDirectory: AccountDirectory = {
  merchant: async () => {
    throw new Error('directory at 10.0.0.7 refused the connection');
  },
  mobileWallet: async () => {
    throw new Error('unused');
  },
  bankAccount: async () => {
    throw new Error('unused');
  },
};

/**
 * GraphQL reads that skip Apollo's pipeline (docs/decisions.md § Performance): a query document
 * already parsed and validated in the process is executed directly, and must answer exactly as
 * Apollo does. A request with `extensions: {}` always goes through Apollo, so each case below is
 * asked both ways (twice each, so the second is served from the prepared documents) and the
 * answers must be the same: status, Content-Type, Cache-Control and body.
 */
describe('GraphQL prepared queries answer as Apollo does', () => {
  let service: TestService;
  let log: CapturedLog;
  let apiKey: string;
  let paymentId: string;

  beforeAll(async () => {
    log = captureLog('error');
    // Workers off: the payment must not move between the answers compared.
    service = await startTestService({ WORKER_ENABLED: 'false', WEBHOOK_WORKER_ENABLED: 'false' }, { accountDirectory: failingDirectory }, { logger: log.logger });
    ({ apiKey } = await service.newTenant());
    const created = await service.call('POST', '/v1/payments/moneyout', { apiKey, body: moneyOutBody(), headers: { 'idempotency-key': randomUUID() } });
    expect(created.status).toBe(201);
    paymentId = created.body.id;
  });
  afterAll(() => service.close());

  const post = async (body: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${service.baseUrl}/graphql`, {
      method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', ...headers }, body: JSON.stringify(body),
    });
    return {
      status: response.status, contentType: response.headers.get('content-type'), cacheControl: response.headers.get('cache-control'),
      text: await response.text(),
    };
  };
  /** The request as sent and as Apollo answers it (`extensions: {}`), each twice; all four must agree. */
  const bothWays = async (body: Record<string, unknown>, headers: Record<string, string> = {}) => {
    const answers = [await post(body, headers), await post(body, headers), await post({ ...body, extensions: {} }, headers), await post({ ...body, extensions: {} }, headers)];
    for (const answer of answers.slice(1)) expect(answer).toEqual(answers[0]);
    return { ...answers[0]!, body: JSON.parse(answers[0]!.text) };
  };

  it('answers a payment the same way, and as REST shows it', async () => {
    const answer = await bothWays({ query: PAYMENT, variables: { id: paymentId } });
    expect(answer).toMatchObject({ status: 200, contentType: 'application/json; charset=utf-8', cacheControl: 'no-store' });
    expect(answer.text.endsWith('}\n')).toBe(true);
    expect(answer.body.errors).toBeUndefined();
    const rest = await service.call('GET', `/v1/payments/${paymentId}`, { apiKey });
    expect(answer.body.data.payment).toMatchObject({ id: paymentId, status: 'INITIATED', amountStablecoin: rest.body.amountStablecoin, createdAt: rest.body.createdAt });
    // `Accept: */*` and `application/json` are answered the same; other types are Apollo's to negotiate.
    expect(await bothWays({ query: PAYMENT, variables: { id: paymentId } }, { accept: '*/*' })).toEqual(answer);
    const graphqlResponse = await bothWays({ query: PAYMENT, variables: { id: paymentId } }, { accept: 'application/graphql-response+json' });
    expect(graphqlResponse.contentType).toBe('application/graphql-response+json; charset=utf-8');
  });

  it('answers an interface selection (node) the same way, through graphql-js, which awaits type-graphql\'s resolveType', async () => {
    const answer = await bothWays({ query: 'query N($id: ID!) { node(id: $id) { __typename id ... on Payment { status fiatAmount } } }', variables: { id: paymentId } });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ data: { node: { __typename: 'Payment', id: paymentId, status: 'INITIATED', fiatAmount: expect.any(String) } } });
  });

  it("answers another tenant's payment with the same not_found error and null", async () => {
    const other = await service.newTenant();
    const answer = await bothWays({ query: PAYMENT, variables: { id: paymentId }, operationName: 'P' }, {});
    expect(answer.body.data.payment.id).toBe(paymentId);
    const response = await fetch(`${service.baseUrl}/graphql`, {
      method: 'POST', headers: { authorization: `Bearer ${other.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: PAYMENT, variables: { id: paymentId } }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      errors: [{ message: `Payment ${paymentId} not found`, locations: [{ line: 1, column: 21 }], path: ['payment'], extensions: { code: 'not_found' } }],
      data: { payment: null },
    });
    const unknown = await bothWays({ query: PAYMENT, variables: { id: 'pay_unknown' } });
    expect(unknown.status).toBe(200);
    expect(unknown.body.errors.map((e: any) => e.extensions.code)).toEqual(['not_found']);
  });

  it('masks an unexpected fault as internal_error and logs it, as Apollo does', async () => {
    const answer = await bothWays({ query: MERCHANT, variables: { n: '123456' } });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      errors: [{ message: 'Internal error', locations: [{ line: 1, column: 23 }], path: ['momoResolve'], extensions: { code: 'internal_error' } }],
      data: { momoResolve: null },
    });
    expect(answer.text).not.toContain('10.0.0.7');
    // Logged once per request, whichever path answered it.
    expect(log.lines.filter((l) => l.msg === 'GraphQL operation failed' && JSON.stringify(l).includes('10.0.0.7'))).toHaveLength(4);
  });

  it('refuses what Apollo refuses, every time a document is asked for', async () => {
    const cases: [Record<string, unknown>, number, string][] = [
      [{ query: PAYMENT, variables: { id: 5.5 } }, 400, 'ID cannot represent value: 5.5'],
      [{ query: PAYMENT }, 400, 'was not provided'],
      [{ query: PAYMENT, variables: { id: paymentId }, operationName: 'Other' }, 400, 'Unknown operation named "Other"'],
      [{ query: '{ payment(id: "x") { idd } }' }, 400, '[Suggestion hidden]'],
      [{ query: '{ payment(id: "a\\u0000b") { id } }' }, 400, 'NUL'],
      [{ query: `{ ${Array.from({ length: 16 }, (_, i) => `p${i}: payment(id: "x") { id }`).join(' ')} }` }, 400, 'Aliases limit'],
      [{ query: '{ node(id: "x") { ... on Payment { id } } }', variables: { v: 'a\u0000' } }, 400, 'NUL'],
      [{ query: 'subscription { paymentUpdated { id } }' }, 400, 'WebSocket'],
    ];
    for (const [body, status, message] of cases) {
      const answer = await bothWays(body);
      const messages = (answer.body.errors ?? []).map((e: { message: string }) => e.message).join(' | ');
      expect({ status: answer.status, messages, data: answer.body.data }).toEqual({ status, messages: expect.stringContaining(message), data: undefined });
    }
  });
});
