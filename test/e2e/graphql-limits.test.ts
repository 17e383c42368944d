import { captureLog, type CapturedLog } from '../support/captured-log';
import { gql } from '../support/graphql-client';
import { startTestService, type TestService } from '../support/test-service';

/**
 * GraphQL abuse limits (docs/decisions.md § Rate limits and abuse limits, § GraphQL): every mutation
 * field draws on the key's budget, depth is measured on the selection with fragments flattened,
 * and a persisted-query request is a client error with its own code.
 */
describe('GraphQL limits', () => {
  let service: TestService;
  let log: CapturedLog;

  beforeAll(async () => {
    log = captureLog('info');
    service = await startTestService({ RATE_LIMIT_PER_MINUTE: '20' }, {}, { logger: log.logger });
  });
  afterAll(async () => service.close());

  const customerFields = (i: number) =>
    `c${i}: createCustomer(input: {externalId: "u${i}", firstName: "Ada", lastName: "Obi", dateOfBirth: "1990-01-01", country: "KE", idType: NATIONAL_ID, idNumber: "A${1000 + i}"}) { id }`;

  it('counts each aliased mutation field against the key budget, and refuses the whole operation when it does not fit', async () => {
    const { apiKey, tenantId } = await service.newTenant();
    const fifteen = await gql(service.baseUrl, `mutation { ${Array.from({ length: 15 }, (_, i) => customerFields(i)).join(' ')} }`, {}, apiKey);
    expect(fifteen.status).toBe(200);
    expect(Object.keys(fifteen.body.data)).toHaveLength(15);
    // 15 of 20 points are spent: the header says so.
    expect(fifteen.headers.get('ratelimit')).toMatch(/^limit=20, remaining=5, reset=\d+$/);

    // Six more mutation fields no longer fit the 5 points left: 429, and none of them ran.
    const six = await gql(service.baseUrl, `mutation { ${Array.from({ length: 6 }, (_, i) => customerFields(100 + i)).join(' ')} }`, {}, apiKey);
    expect(six.status).toBe(429);
    expect(six.body.errors[0].extensions.code).toBe('rate_limited');
    expect(Number(six.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const customers = await service.call('GET', '/v1/customers?limit=100', { apiKey });
    expect(customers.status).toBe(429); // the budget is spent for REST too: one budget per key
    const rows = await service.database.orm.em.getConnection().execute<{ count: number }[]>(
      'select count(*)::int as count from customers where tenant_id = ?', [tenantId]);
    expect(rows[0]?.count).toBe(15);
  });

  it('counts mutation fields reached through fragments too', async () => {
    const { apiKey } = await service.newTenant();
    const query = `mutation { ...A ... on Mutation { ${customerFields(1)} ${customerFields(2)} } }
      fragment A on Mutation { ${customerFields(3)} ${customerFields(4)} }`;
    const result = await gql(service.baseUrl, query, {}, apiKey);
    expect(result.status).toBe(200);
    expect(result.headers.get('ratelimit')).toMatch(/^limit=20, remaining=16, reset=\d+$/);
  });

  it('measures depth on the flattened selection: named fragments add no depth', async () => {
    const { apiKey } = await service.newTenant();
    const query = `query { payments { ...Edges } }
      fragment Edges on PaymentConnection { edges { ...Node } }
      fragment Node on PaymentEdge { node { ...Fields } }
      fragment Fields on Payment { id status }`;
    const result = await gql(service.baseUrl, query, {}, apiKey);
    expect(result.body.errors).toBeUndefined();
    expect(result.body.data.payments.edges).toEqual([]);
  });

  it('still refuses a selection that is really too deep, written with fragments or not', async () => {
    const { apiKey } = await service.newTenant();
    const deep = 'query { payments { edges { node { ...F } } } } fragment F on Payment { id ... on Payment { ... on Payment { status } } }';
    expect((await gql(service.baseUrl, deep, {}, apiKey)).body.errors).toBeUndefined();
    // me { tenant ... } is not deep; build depth 7 from nested connections of the schema instead.
    const tooDeep = `query { __type(name: "Payment") { fields { type { ofType { ofType { ofType { ofType { name } } } } } } } }`;
    const refused = await gql(service.baseUrl, tooDeep, {}, apiKey);
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].message).toMatch(/depth limit of 6 exceeded, found 8/);
  });

  it('answers a persisted-query request with its own client code, logged below error level', async () => {
    const { apiKey } = await service.newTenant();
    const response = await fetch(`${service.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
      body: JSON.stringify({ query: '{ me { tenantId } }', extensions: { persistedQuery: { version: 1, sha256Hash: 'f'.repeat(64) } } }),
    });
    const body = (await response.json()) as { errors: { message: string; extensions: { code: string } }[] };
    expect(response.status).toBe(400);
    expect(body.errors[0]?.extensions.code).toBe('persisted_query_not_supported');
    expect(body.errors[0]?.message).toBe('PersistedQueryNotSupported');
    expect(log.lines.filter((line) => line.level >= 50)).toEqual([]);
  });
});
