import { randomUUID } from 'node:crypto';
import { gql, restPaymentInGraphql } from '../support/graphql-client';
import { startReceiver, type Receiver } from '../support/receiver';
import { eventually, moneyOutBody, startTestService, type TestService } from '../support/test-service';

/**
 * The GraphQL conventions an integrator relies on (docs/decisions.md § GraphQL): Node and
 * node(id:), edges with cursors on every connection, nullable single reads, one enum casing, the
 * schema's version and deprecations, as a client sees them over HTTP.
 */
const NODE = `query N($id: ID!) {
  node(id: $id) {
    __typename id
    ... on Payment { status fiatAmount }
    ... on Customer { externalId kycStatus }
    ... on LedgerTransaction { kind amount paymentId }
    ... on WebhookEvent { eventType entityId deliveryStatus: status }
  }
}`;

describe('GraphQL by the Relay conventions', () => {
  let service: TestService;
  let receiver: Receiver;
  let apiKey: string;
  let other: string;
  let paymentId: string;

  beforeAll(async () => {
    service = await startTestService({ KYC_SANDBOX_DELAY_MS: '50' });
    receiver = await startReceiver();
    ({ apiKey } = await service.newTenant('100'));
    ({ apiKey: other } = await service.newTenant('100'));
    const registered = await service.call('POST', '/v1/webhooks/register', { apiKey, body: { url: receiver.url, events: ['payment.processing'] } });
    expect(registered.status).toBe(201);
    const created = await service.call('POST', '/v1/payments/moneyout', { apiKey, body: moneyOutBody(), headers: { 'idempotency-key': randomUUID() } });
    expect(created.status).toBe(201);
    paymentId = created.body.id;
  });
  afterAll(async () => {
    await service.close();
    await receiver.close();
  });

  const q = (query: string, variables: Record<string, unknown> = {}, key = apiKey) => gql(service.baseUrl, query, variables, key);

  describe('node(id:)', () => {
    it('reads a payment, a customer, a ledger transaction and an event log entry by id, as their own reads show them', async () => {
      // Compared once the sandbox has finished with it, so both reads see the same status.
      const rest = await eventually(async () => {
        const res = (await service.call('GET', `/v1/payments/${paymentId}`, { apiKey })).body;
        return ['succeeded', 'failed', 'refunded'].includes(res.status) ? res : undefined;
      });
      const payment = (await q(NODE, { id: paymentId })).body.data.node;
      expect(payment).toEqual({ __typename: 'Payment', id: paymentId, status: restPaymentInGraphql(rest).status, fiatAmount: rest.fiatAmount });

      const customer = (await q('mutation C($input: CreateCustomerInput!) { createCustomer(input: $input) { id externalId } }', {
        input: { externalId: `node-${randomUUID()}`, firstName: 'Amina', lastName: 'Odhiambo', country: 'KE', dateOfBirth: '1990-04-12', idType: 'NATIONAL_ID', idNumber: '12345678' },
      })).body.data.createCustomer;
      expect((await q(NODE, { id: customer.id })).body.data.node).toMatchObject({ __typename: 'Customer', id: customer.id, externalId: customer.externalId });

      const hold = (await q('{ balanceTransactions(first: 10) { nodes { id kind paymentId } } }')).body.data.balanceTransactions.nodes
        .find((t: { kind: string; paymentId: string | null }) => t.kind === 'HOLD' && t.paymentId === paymentId);
      expect(hold).toBeDefined();
      expect((await q(NODE, { id: hold.id })).body.data.node).toMatchObject({ __typename: 'LedgerTransaction', id: hold.id, kind: 'HOLD', paymentId });

      const entry = await eventually(async () => (await q('query E($id: String) { webhookEvents(entityId: $id) { nodes { id } } }', { id: paymentId }))
        .body.data.webhookEvents.nodes[0]);
      expect((await q(NODE, { id: entry.id })).body.data.node).toMatchObject({
        __typename: 'WebhookEvent', id: entry.id, eventType: 'PAYMENT_PROCESSING', entityId: paymentId,
      });
    });

    it("is null with not_found for another tenant's object, an unknown id or prefix; the rest of data stands", async () => {
      for (const id of [paymentId, `pay_${'0'.repeat(26)}`, `cus_${'0'.repeat(26)}`, `ldg_${'0'.repeat(26)}`, randomUUID(), 'quo_01ARZ3NDEKTSV4RRFFQ69G5FAV', 'nothing']) {
        const res = await q(`query N($id: ID!) { node(id: $id) { id } me { scope } }`, { id }, other);
        expect({ id, data: res.body.data }).toEqual({ id, data: { node: null, me: { scope: 'ISSUER' } } });
        expect(res.body.errors).toEqual([expect.objectContaining({ path: ['node'], extensions: { code: 'not_found' } })]);
      }
    });
  });

  it('single reads are nullable: an unknown payment is null beside the fields that succeed', async () => {
    const res = await q(`query P($a: ID!, $b: ID!) { known: payment(id: $a) { id } unknown: payment(id: $b) { id } }`, { a: paymentId, b: `pay_${'0'.repeat(26)}` });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ known: { id: paymentId }, unknown: null });
    expect(res.body.errors).toEqual([expect.objectContaining({ path: ['unknown'], extensions: { code: 'not_found' } })]);
  });

  it.each([
    ['payments', 'id'], ['customers', 'id'], ['balanceTransactions', 'id'], ['webhookEvents', 'id'],
  ])('%s: every edge has the cursor that resumes the list just after it', async (field) => {
    // Entries arrive while the sandbox moves the payments (ledger moves, events), and an entry whose
    // id was taken before another's may commit after it: the lists are compared once the payments are final.
    const { apiKey: key } = await service.newTenant('100');
    await service.call('POST', '/v1/webhooks/register', { apiKey: key, body: { url: receiver.url } });
    for (let i = 0; i < 3; i++) {
      expect((await service.call('POST', '/v1/payments/moneyout', { apiKey: key, body: moneyOutBody(), headers: { 'idempotency-key': randomUUID() } })).status).toBe(201);
      expect((await service.call('POST', '/v1/customers', {
        apiKey: key, body: { externalId: `edge-${randomUUID()}`, firstName: 'A', lastName: 'B', country: 'KE', dateOfBirth: '1990-04-12', idType: 'PASSPORT', idNumber: 'AB123456' },
      })).status).toBe(201);
    }
    await eventually(async () => {
      const page = (await service.call('GET', '/v1/payments?limit=100', { apiKey: key })).body as Array<{ status: string }>;
      return page.length === 3 && page.every((p) => ['succeeded', 'failed', 'refunded'].includes(p.status)) ? true : undefined;
    });
    const list = `query L($first: Int, $after: String) { ${field}(first: $first, after: $after) {
      edges { cursor node { id } } nodes { id } pageInfo { startCursor endCursor hasNextPage hasPreviousPage } } }`;
    const all = await eventually(async () => {
      const page = (await q(list, { first: 100 }, key)).body.data[field];
      return page.edges.length >= 3 ? page : undefined;
    });
    const ids = all.edges.map((e: { node: { id: string } }) => e.node.id);
    expect(all.nodes.map((n: { id: string }) => n.id)).toEqual(ids);
    expect(all.pageInfo).toEqual({ startCursor: all.edges[0].cursor, endCursor: all.edges[all.edges.length - 1].cursor, hasNextPage: false, hasPreviousPage: false });
    for (let i = 0; i < all.edges.length; i++) {
      const rest = (await q(list, { first: 100, after: all.edges[i].cursor }, key)).body.data[field];
      expect({ i, ids: rest.edges.map((e: { node: { id: string } }) => e.node.id) }).toEqual({ i, ids: ids.slice(i + 1) });
    }
    const one = (await q(list, { first: 1 }, key)).body.data[field];
    expect(one.pageInfo).toEqual({ hasNextPage: true, hasPreviousPage: false, startCursor: one.edges[0].cursor, endCursor: one.edges[0].cursor });
  });

  it('every connection takes first (1..100, default 50) and after; a page size outside that is validation_error on first', async () => {
    // Without first, a page holds 50: the default the descriptions state.
    const { apiKey: many } = await service.newTenant('100');
    for (let i = 0; i < 51; i++) {
      expect((await service.call('POST', '/v1/customers', {
        apiKey: many, body: { externalId: `many-${i}-${randomUUID()}`, firstName: 'A', lastName: 'B', country: 'KE', dateOfBirth: '1990-04-12', idType: 'PASSPORT', idNumber: 'AB123456' },
      })).status).toBe(201);
    }
    const page = (await q('{ customers { edges { cursor } pageInfo { hasNextPage } } }', {}, many)).body.data.customers;
    expect({ size: page.edges.length, more: page.pageInfo.hasNextPage }).toEqual({ size: 50, more: true });

    const schema = (await q('{ __schema { queryType { fields { name args { name description type { name kind } } type { name kind ofType { name } } } } } }')).body.data.__schema;
    const connections = schema.queryType.fields.filter((f: any) => (f.type.name ?? f.type.ofType?.name ?? '').endsWith('Connection'));
    expect(connections.map((f: any) => f.name).sort()).toEqual(['balanceTransactions', 'customers', 'deposits', 'payments', 'webhookEvents']);
    for (const field of connections) {
      const args = Object.fromEntries(field.args.map((a: any) => [a.name, a]));
      expect({ field: field.name, first: args.first?.description, after: args.after?.type.name })
        .toEqual({ field: field.name, first: expect.stringContaining('1..100 (default 50)'), after: 'String' });
      for (const first of [0, 101]) {
        const res = await q(`query F($first: Int) { ${field.name}(first: $first) { pageInfo { hasNextPage } } }`, { first });
        expect({ field: field.name, first, error: res.body.errors?.[0]?.extensions }).toEqual({ field: field.name, first, error: { code: 'validation_error', details: { field: 'first' } } });
      }
    }
  });

  it('payments pages backward with last/before, newest first within each page, and refuses mixing directions', async () => {
    const { apiKey: key } = await service.newTenant('100');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await service.call('POST', '/v1/payments/moneyout', { apiKey: key, body: moneyOutBody(), headers: { 'idempotency-key': randomUUID() } });
      expect(res.status).toBe(201);
      ids.unshift(res.body.id);
    }
    // ids: newest first.
    const list = `query P($first: Int, $after: String, $last: Int, $before: String) {
      payments(first: $first, after: $after, last: $last, before: $before) {
        edges { cursor node { id } } pageInfo { startCursor endCursor hasNextPage hasPreviousPage } } }`;
    const page = async (variables: Record<string, unknown>) => {
      const res = await q(list, variables, key);
      expect(res.body.errors).toBeUndefined();
      const p = res.body.data.payments;
      return { ids: p.edges.map((e: any) => e.node.id), info: p.pageInfo, edges: p.edges };
    };
    const one = await page({ first: 2 });
    expect(one).toMatchObject({ ids: ids.slice(0, 2), info: { hasNextPage: true, hasPreviousPage: false } });
    const two = await page({ first: 2, after: one.info.endCursor });
    expect(two).toMatchObject({ ids: ids.slice(2, 4), info: { hasNextPage: true, hasPreviousPage: true } });
    const back = await page({ last: 2, before: two.info.startCursor });
    expect(back).toMatchObject({ ids: ids.slice(0, 2), info: { hasNextPage: true, hasPreviousPage: false, startCursor: one.info.startCursor, endCursor: one.info.endCursor } });
    const middle = await page({ last: 1, before: two.info.endCursor });
    expect(middle).toMatchObject({ ids: [ids[2]], info: { hasNextPage: true, hasPreviousPage: true } });
    const oldest = await page({ last: 2 });
    expect(oldest).toMatchObject({ ids: ids.slice(3, 5), info: { hasNextPage: false, hasPreviousPage: true } });
    expect(await page({ last: 10 })).toMatchObject({ ids, info: { hasNextPage: false, hasPreviousPage: false } });
    // A filter holds in both directions.
    const filtered = await q(`query F($before: String) { payments(last: 5, before: $before, filter: { status: [REFUNDED] }) { edges { node { id } } } }`, { before: two.info.startCursor }, key);
    expect(filtered.body.data.payments.edges).toEqual([]);

    for (const [variables, field] of [
      [{ first: 2, last: 2 }, 'first'], [{ after: one.info.endCursor, last: 2 }, 'after'], [{ before: one.info.startCursor }, 'last'],
      [{ last: 0 }, 'last'], [{ last: 101 }, 'last'], [{ last: 2, before: 'garbage' }, 'before'], [{ last: 2, before: 'x'.repeat(201) }, 'before'],
    ] as const) {
      const res = await q(list, variables, key);
      expect({ variables, data: res.body.data, error: res.body.errors?.[0]?.extensions }).toEqual({ variables, data: null, error: { code: 'validation_error', details: { field } } });
    }
  });

  it('speaks one enum casing, carries its version, and deprecates the legacy payout with its replacement', async () => {
    const res = await q(`{
      __schema { description types { kind name enumValues(includeDeprecated: true) { name } } }
      __type(name: "Mutation") { fields(includeDeprecated: true) { name isDeprecated deprecationReason } }
    }`);
    const { __schema: schema, __type: mutation } = res.body.data;
    expect(schema.description).toMatch(/schema version \d+\.\d+\.\d+/);
    const values = schema.types.filter((t: any) => t.kind === 'ENUM' && !t.name.startsWith('__')).flatMap((t: any) => t.enumValues.map((v: any) => `${t.name}.${v.name}`));
    expect(values.length).toBeGreaterThan(50);
    expect(values.filter((v: string) => !/\.[A-Z][A-Z0-9_]*$/.test(v))).toEqual([]);
    const legacy = mutation.fields.find((f: any) => f.name === 'legacyPayout');
    expect(legacy).toEqual({ name: 'legacyPayout', isDeprecated: true, deprecationReason: expect.stringContaining('createMoneyOut') });
    expect(mutation.fields.filter((f: any) => f.isDeprecated).map((f: any) => f.name)).toEqual(['legacyPayout']);
  });
});
