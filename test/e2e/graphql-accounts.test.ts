import { randomUUID } from 'node:crypto';
import { gql, restCustomerInGraphql, restTransactionInGraphql } from '../support/graphql-client';
import { eventually, moneyOutBody, startTestService, type TestService } from '../support/test-service';

const BALANCES = '{ balances { currency available held inTransit } }';
const TRANSACTIONS = `query T($first: Int, $after: String) {
  balanceTransactions(first: $first, after: $after) {
    nodes { id kind currency amount from to paymentId txHash createdAt }
    pageInfo { endCursor hasNextPage }
  }
}`;
const CUSTOMER_FIELDS = 'id externalId firstName lastName country dateOfBirth idType idNumberLast4 kycStatus kycReason createdAt updatedAt';
const CREATE_CUSTOMER = `mutation C($input: CreateCustomerInput!) { createCustomer(input: $input) { ${CUSTOMER_FIELDS} } }`;
const CUSTOMER = `query One($id: ID!) { customer(id: $id) { ${CUSTOMER_FIELDS} } }`;
const CUSTOMERS = `query List($first: Int, $after: String) {
  customers(first: $first, after: $after) { nodes { ${CUSTOMER_FIELDS} } pageInfo { endCursor hasNextPage } }
}`;
const SUMMARY = `query A($from: DateTimeISO!, $to: DateTimeISO!, $groupBy: AnalyticsGroupBy) {
  analyticsSummary(from: $from, to: $to, groupBy: $groupBy) {
    key count fiatVolume { currency amount } stablecoinVolume { currency amount } successRate medianSecondsToSuccess
  }
}`;

/** REST's volume objects as GraphQL lists, member order kept. */
const asList = (volume: Record<string, string>) => Object.entries(volume).map(([currency, amount]) => ({ currency, amount }));
const asGraphqlGroup = (g: any) => ({ ...g, fiatVolume: asList(g.fiatVolume), stablecoinVolume: asList(g.stablecoinVolume) });

describe('GraphQL balances, customers and analytics mirror the REST reads and writes', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ KYC_SANDBOX_DELAY_MS: '50' });
  });
  afterAll(() => service.close());

  const query = (apiKey: string, text: string, variables: Record<string, unknown> = {}) => gql(service.baseUrl, text, variables, apiKey);
  const pay = async (apiKey: string, overrides: Record<string, unknown> = {}) => {
    const res = await service.call('POST', '/v1/payments/moneyout', { apiKey, body: moneyOutBody(overrides), headers: { 'idempotency-key': randomUUID() } });
    expect(res.status).toBe(201);
    return res.body as { id: string; amountStablecoin: string };
  };
  const statusOf = async (apiKey: string, id: string) => (await service.call('GET', `/v1/payments/${id}`, { apiKey })).body.status as string;
  const restBalances = async (apiKey: string) => (await service.call('GET', '/v1/balances', { apiKey })).body;
  const codeOf = (res: { body: any }) => res.body.errors?.[0]?.extensions?.code;

  describe('balances', () => {
    it('equal REST GET /v1/balances, and show a money-out held then in transit', async () => {
      const { apiKey } = await service.newTenant('100');
      const before = await query(apiKey, BALANCES);
      expect(before.body.errors).toBeUndefined();
      expect(before.body.data.balances).toEqual(await restBalances(apiKey));
      expect(before.body.data.balances).toContainEqual({ currency: 'USDC', available: '100.000000', held: '0.000000', inTransit: '0.000000' });

      // Ending 3333: the sandbox accepts and then waits, so the money stays in transit.
      const payment = await pay(apiKey, { accountNumber: '254712343333' });
      expect(payment.amountStablecoin).toBe('12.115416');
      const held = (await query(apiKey, BALANCES)).body.data.balances.find((b: any) => b.currency === 'USDC');
      expect(held.available).toBe('87.884584');
      expect([held.held, held.inTransit].sort()).toEqual(['0.000000', '12.115416']);
      await eventually(async () => ((await query(apiKey, BALANCES)).body.data.balances.find((b: any) => b.currency === 'USDC').inTransit === '12.115416' ? true : undefined));
      const after = (await query(apiKey, BALANCES)).body.data.balances;
      expect(after).toEqual(await restBalances(apiKey));
      expect(after).toContainEqual({ currency: 'USDC', available: '87.884584', held: '0.000000', inTransit: '12.115416' });
      expect(after).toContainEqual({ currency: 'USDT', available: '100.000000', held: '0.000000', inTransit: '0.000000' });
    });

    it("balanceTransactions: REST's ledger list, newest first, paged forward, tenant-scoped; bad pages refused as REST refuses them", async () => {
      const { apiKey } = await service.newTenant('100');
      const other = await service.newTenant('100');
      const payment = await pay(apiKey, { accountNumber: '254712343333' });
      await eventually(async () => ((await statusOf(apiKey, payment.id)) === 'provider_accepted' ? true : undefined));
      const rest = (await service.call('GET', '/v1/balances/transactions?limit=100', { apiKey })).body;
      // Two sandbox fundings, then the hold and the send of the payment.
      expect(rest.map((t: any) => t.kind)).toEqual(['send', 'hold', 'sandbox_funding', 'sandbox_funding']);

      const page1 = await query(apiKey, TRANSACTIONS, { first: 3 });
      expect(page1.body.errors).toBeUndefined();
      const first = page1.body.data.balanceTransactions;
      expect(first.nodes).toEqual(rest.slice(0, 3).map(restTransactionInGraphql));
      expect(first.nodes[0]).toMatchObject({ kind: 'SEND', from: 'HELD', to: 'IN_TRANSIT', amount: '12.115416', paymentId: payment.id, txHash: null });
      expect(first.pageInfo).toEqual({ hasNextPage: true, endCursor: expect.any(String) });
      const page2 = (await query(apiKey, TRANSACTIONS, { first: 3, after: first.pageInfo.endCursor })).body.data.balanceTransactions;
      // The last page's endCursor is its last edge's; nothing follows it.
      expect(page2).toEqual({ nodes: rest.slice(3).map(restTransactionInGraphql), pageInfo: { hasNextPage: false, endCursor: expect.any(String) } });
      const beyond = (await query(apiKey, TRANSACTIONS, { first: 3, after: page2.pageInfo.endCursor })).body.data.balanceTransactions;
      expect(beyond).toEqual({ nodes: [], pageInfo: { hasNextPage: false, endCursor: null } });
      // Default page size is REST's: everything of this short list.
      expect((await query(apiKey, TRANSACTIONS)).body.data.balanceTransactions.nodes).toEqual(rest.map(restTransactionInGraphql));

      const foreign = (await query(other.apiKey, TRANSACTIONS, { first: 100 })).body.data.balanceTransactions.nodes;
      expect(foreign.map((t: any) => t.kind)).toEqual(['SANDBOX_FUNDING', 'SANDBOX_FUNDING']);
      expect(foreign.some((t: any) => rest.some((r: any) => r.id === t.id))).toBe(false);

      for (const [variables, restQuery] of [
        [{ first: 0 }, 'limit=0'], [{ first: 101 }, 'limit=101'], [{ after: 'garbage' }, 'cursor=garbage'], [{ after: 'x'.repeat(201) }, `cursor=${'x'.repeat(201)}`],
      ] as const) {
        const res = await query(apiKey, TRANSACTIONS, variables);
        expect({ variables, code: codeOf(res), data: res.body.data }).toEqual({ variables, code: 'validation_error', data: null });
        expect((await service.call('GET', `/v1/balances/transactions?${restQuery}`, { apiKey })).body.code).toBe('validation_error');
      }
    });
  });

  describe('customers', () => {
    const input = (o: Record<string, unknown> = {}) => ({
      externalId: `user-${randomUUID()}`, firstName: 'Amina', lastName: 'Odhiambo', country: 'KE', dateOfBirth: '1990-04-12',
      idType: 'NATIONAL_ID', idNumber: '12345678', ...o,
    });
    const restCustomer = async (apiKey: string, id: string) => (await service.call('GET', `/v1/customers/${id}`, { apiKey })).body;
    const decided = (apiKey: string, id: string, status: string) => eventually(async () => {
      const res = await query(apiKey, CUSTOMER, { id });
      return res.body.data?.customer?.kycStatus === status ? res.body.data.customer : undefined;
    });

    it('createCustomer answers a pending customer; customer(id) then shows the KYC decision, equal to REST', async () => {
      const { apiKey } = await service.newTenant('0');
      const created = await query(apiKey, CREATE_CUSTOMER, { input: input() });
      expect(created.body.errors).toBeUndefined();
      const customer = created.body.data.createCustomer;
      expect(customer).toEqual({
        id: expect.stringMatching(/^cus_[0-9A-Z]{26}$/), externalId: expect.any(String), firstName: 'Amina', lastName: 'Odhiambo', country: 'KE',
        dateOfBirth: '1990-04-12', idType: 'NATIONAL_ID', idNumberLast4: '5678', kycStatus: 'PENDING', kycReason: null,
        createdAt: expect.any(String), updatedAt: customer.createdAt,
      });
      expect(JSON.stringify(created.body)).not.toContain('12345678');
      const approved = await decided(apiKey, customer.id, 'APPROVED');
      expect(approved).toEqual(restCustomerInGraphql(await restCustomer(apiKey, customer.id)));
      expect(approved).toMatchObject({ kycReason: null, createdAt: customer.createdAt });

      // The sandbox KYC provider rejects document numbers ending 0000, with a reason.
      const doomed = (await query(apiKey, CREATE_CUSTOMER, { input: input({ idNumber: 'AB120000' }) })).body.data.createCustomer;
      expect(doomed.kycStatus).toBe('PENDING');
      const rejected = await decided(apiKey, doomed.id, 'REJECTED');
      expect(rejected.kycReason).toEqual(expect.any(String));
      expect(rejected).toEqual(restCustomerInGraphql(await restCustomer(apiKey, doomed.id)));
    });

    it("customers pages newest first, equal to REST's pages, across customers created through either transport", async () => {
      const { apiKey } = await service.newTenant('0');
      const one = (await query(apiKey, CREATE_CUSTOMER, { input: input() })).body.data.createCustomer;
      const two = (await service.call('POST', '/v1/customers', { apiKey, body: input() })).body;
      const three = (await query(apiKey, CREATE_CUSTOMER, { input: input({ idNumber: 'X-0000' }) })).body.data.createCustomer;
      // Decisions change updatedAt; compare with REST once nothing moves any more.
      for (const [c, status] of [[one, 'APPROVED'], [two, 'APPROVED'], [three, 'REJECTED']] as const) await decided(apiKey, c.id, status);

      const restPage1 = await service.call('GET', '/v1/customers?limit=2', { apiKey });
      const page1 = (await query(apiKey, CUSTOMERS, { first: 2 })).body.data.customers;
      expect(page1.nodes.map((c: any) => c.id)).toEqual([three.id, two.id]);
      expect(page1.nodes).toEqual(restPage1.body.map(restCustomerInGraphql));
      expect(page1.pageInfo).toEqual({ hasNextPage: true, endCursor: expect.any(String) });
      const page2 = (await query(apiKey, CUSTOMERS, { first: 2, after: page1.pageInfo.endCursor })).body.data.customers;
      expect(page2).toEqual({ nodes: [restCustomerInGraphql(await restCustomer(apiKey, one.id))], pageInfo: { hasNextPage: false, endCursor: expect.any(String) } });
      expect((await query(apiKey, CUSTOMERS)).body.data.customers.nodes).toEqual((await service.call('GET', '/v1/customers', { apiKey })).body.map(restCustomerInGraphql));

      for (const variables of [{ first: 0 }, { first: 101 }, { after: 'forged' }]) {
        expect({ variables, code: codeOf(await query(apiKey, CUSTOMERS, variables)) }).toEqual({ variables, code: 'validation_error' });
      }
    });

    it('refuses invalid input with validation_error, exactly where REST refuses it, writing nothing', async () => {
      const { apiKey, tenantId } = await service.newTenant('0');
      const today = new Date();
      const ymd = (d: Date) => d.toISOString().slice(0, 10);
      const almost18 = ymd(new Date(Date.UTC(today.getUTCFullYear() - 18, today.getUTCMonth(), today.getUTCDate() + 1)));
      for (const bad of [
        input({ dateOfBirth: '1990-02-30' }), input({ dateOfBirth: '1990-4-12' }), input({ dateOfBirth: almost18 }), input({ dateOfBirth: '1899-12-31' }),
        input({ country: 'KEN' }), input({ country: 'ZZ' }), input({ country: 'ke' }), input({ idNumber: '12 34' }), input({ idNumber: '123' }),
        input({ firstName: ' ' }), input({ lastName: '' }), input({ externalId: 'x'.repeat(101) }), input({ idNumber: '1'.repeat(33) }),
        input({ idType: 'LIBRARY_CARD' }), input({ extra: true }), { firstName: 'Amina' },
      ]) {
        const res = await query(apiKey, CREATE_CUSTOMER, { input: bad });
        expect({ bad, code: codeOf(res), data: res.body.data ?? null }).toEqual({ bad, code: 'validation_error', data: null });
      }
      // REST refuses the same bodies; it is called on another tenant so this one's table stays empty.
      const restTenant = await service.newTenant('0');
      for (const bad of [input({ externalId: 'x'.repeat(101) }), input({ idNumber: '123' }), input({ country: 'ke' })]) {
        expect((await service.call('POST', '/v1/customers', { apiKey: restTenant.apiKey, body: bad })).status).toBe(400);
      }
      const rows = await service.database.orm.em.fork().getConnection().execute('select id from customers where tenant_id = ?', [tenantId]);
      expect(rows).toEqual([]);
      expect((await query(apiKey, CUSTOMERS)).body.data.customers).toEqual({ nodes: [], pageInfo: { hasNextPage: false, endCursor: null } });

      // The boundaries REST accepts are accepted too.
      const adult = ymd(new Date(Date.UTC(today.getUTCFullYear() - 18, today.getUTCMonth(), today.getUTCDate())));
      const ok = await query(apiKey, CREATE_CUSTOMER, { input: input({ dateOfBirth: adult, country: 'XK', idType: 'PASSPORT', externalId: 'x'.repeat(100) }) });
      expect(ok.body.errors).toBeUndefined();
      const duplicate = await query(apiKey, CREATE_CUSTOMER, { input: input({ externalId: 'x'.repeat(100) }) });
      expect(codeOf(duplicate)).toBe('duplicate_customer');
    });

    it("answers not_found for another tenant's customer and an unknown id, never showing it", async () => {
      const { apiKey } = await service.newTenant('0');
      const other = await service.newTenant('0');
      const theirs = (await query(other.apiKey, CREATE_CUSTOMER, { input: input() })).body.data.createCustomer;
      const res = await query(apiKey, CUSTOMER, { id: theirs.id });
      expect(res.body.data).toEqual({ customer: null });
      expect(res.body.errors[0]).toMatchObject({ extensions: { code: 'not_found' }, path: ['customer'] });
      expect(codeOf(await query(apiKey, CUSTOMER, { id: 'cus_01ARZ3NDEKTSV4RRFFQ69G5FAV' }))).toBe('not_found');
      // REST's path rule: an id over 64 characters is invalid, not merely absent.
      expect(codeOf(await query(apiKey, CUSTOMER, { id: `cus_${'A'.repeat(61)}` }))).toBe('validation_error');
      expect((await service.call('GET', `/v1/customers/cus_${'A'.repeat(61)}`, { apiKey })).body.code).toBe('validation_error');
      expect((await query(apiKey, CUSTOMERS)).body.data.customers.nodes).toEqual([]);
      expect((await query(other.apiKey, CUSTOMER, { id: theirs.id })).body.data.customer.id).toBe(theirs.id);
    });
  });

  describe('analyticsSummary', () => {
    let apiKey: string;
    let paid: { id: string; amountStablecoin: string }[];
    const from = new Date(Date.now() - 60_000).toISOString();
    const to = () => new Date(Date.now() + 60_000).toISOString();
    const ugx = { country: 'UG', destinationCurrency: 'UGX', paymentCode: 'MTN', accountNumber: '256712345678' };
    // Sandbox outcomes by the account number's last four digits: known statuses and amounts.
    const plan: [Record<string, unknown>, string][] = [
      [{}, 'succeeded'],
      [{}, 'succeeded'],
      [{ accountNumber: '254712340000' }, 'failed'],
      [{ accountNumber: '254712343333' }, 'provider_accepted'],
      [{ ...ugx, fiatAmount: 1000, sourceCurrency: 'USDT' }, 'succeeded'],
    ];

    beforeAll(async () => {
      ({ apiKey } = await service.newTenant());
      paid = [];
      for (const [overrides] of plan) paid.push(await pay(apiKey, overrides));
      await eventually(async () => {
        const now = await Promise.all(paid.map((p) => statusOf(apiKey, p.id)));
        return now.length === plan.length && now.every((s, i) => s === plan[i]![1]) ? true : undefined;
      });
    });

    const summary = (variables: Record<string, unknown>, key = apiKey) => query(key, SUMMARY, variables);

    it('groups by currency with the known counts, volumes and success rates', async () => {
      const res = await summary({ from, to: to(), groupBy: 'CURRENCY' });
      expect(res.body.errors).toBeUndefined();
      const usdc = paid.slice(0, 4).reduce((s, p) => s + BigInt(p.amountStablecoin.replace('.', '')), 0n);
      expect(res.body.data.analyticsSummary).toEqual([
        // 2 succeeded of 3 final; the provider_accepted one is not final.
        {
          key: 'KES', count: 4, fiatVolume: [{ currency: 'KES', amount: '6000.00' }],
          stablecoinVolume: [{ currency: 'USDC', amount: `${usdc / 1_000_000n}.${String(usdc % 1_000_000n).padStart(6, '0')}` }],
          successRate: '0.6667', medianSecondsToSuccess: expect.any(Number),
        },
        {
          key: 'UGX', count: 1, fiatVolume: [{ currency: 'UGX', amount: '1000' }], stablecoinVolume: [{ currency: 'USDT', amount: paid[4]!.amountStablecoin }],
          successRate: '1', medianSecondsToSuccess: expect.any(Number),
        },
      ]);
    });

    it.each(['day', 'currency', 'method', 'status'])('groupBy %s equals REST GET /v1/analytics/summary', async (groupBy) => {
      const end = to();
      const res = await summary({ from, to: end, groupBy: groupBy.toUpperCase() });
      const rest = await service.call('GET', `/v1/analytics/summary?from=${from}&to=${end}&groupBy=${groupBy}`, { apiKey });
      expect(rest.status).toBe(200);
      expect(res.body.data.analyticsSummary).toEqual(rest.body.map(asGraphqlGroup));
      expect(res.body.data.analyticsSummary.reduce((n: number, g: any) => n + g.count, 0)).toBe(5);
    });

    it('defaults to groupBy day and sees only the caller\'s payments', async () => {
      const day = (await summary({ from, to: to() })).body.data.analyticsSummary;
      expect(day).toEqual([expect.objectContaining({ key: new Date().toISOString().slice(0, 10), count: 5, successRate: '0.75' })]);
      const other = await service.newTenant();
      expect((await summary({ from, to: to() }, other.apiKey)).body.data.analyticsSummary).toEqual([]);
    });

    it('refuses bad ranges and groupings with validation_error, as REST does', async () => {
      const at = '2026-01-01T00:00:00Z';
      for (const [variables, restQuery] of [
        [{ from: to(), to: from }, `from=${to()}&to=${from}`],
        [{ from: at, to: at }, `from=${at}&to=${at}`],
        [{ from: '2020-01-01T00:00:00Z', to: '2021-01-02T00:00:01Z' }, 'from=2020-01-01T00:00:00Z&to=2021-01-02T00:00:01Z'],
        [{ from: 'yesterday', to: 'today' }, 'from=yesterday&to=today'],
        [{ from: '2026-01-01', to: '2026-01-02' }, 'from=2026-01-01&to=2026-01-02'],
        [{ from: '2026-01-01T00:00:00', to: '2026-01-02T00:00:00' }, 'from=2026-01-01T00:00:00&to=2026-01-02T00:00:00'],
        [{ from, to: to(), groupBy: 'WEEK' }, `from=${from}&to=${to()}&groupBy=week`],
        [{ from, to: to(), groupBy: 'day' }, `from=${from}&to=${to()}&groupBy=DAY`],
        [{ from }, `from=${from}`],
      ] as const) {
        const res = await summary(variables);
        expect({ variables, code: codeOf(res), data: res.body.data ?? null }).toEqual({ variables, code: 'validation_error', data: null });
        const rest = await service.call('GET', `/v1/analytics/summary?${restQuery}`, { apiKey });
        expect({ restQuery, code: rest.body.code }).toEqual({ restQuery, code: 'validation_error' });
      }
      // 366 days, leap day included, is the longest range accepted, with an offset as REST allows.
      const year = await summary({ from: '2024-01-01T03:00:00+03:00', to: '2025-01-01T00:00:00Z' });
      expect(year.body).toEqual({ data: { analyticsSummary: [] } });
    });
  });
});
