import { randomUUID } from 'node:crypto';
import { gql } from '../support/graphql-client';
import { eventually, moneyOutBody, startTestService, type TestService } from '../support/test-service';
import { solanaTxHash } from '../support/tx-hashes';

const REFUND_ADDRESS = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
const MONEY_OUT = 'mutation($input: MoneyOutInput!, $key: String!) { createMoneyOut(input: $input, idempotencyKey: $key) { payment { id } } }';
const LEGACY = 'mutation($input: LegacyPayoutInput!) { legacyPayout(input: $input) { transactionId } }';
const CUSTOMER = 'mutation($input: CreateCustomerInput!) { createCustomer(input: $input) { id } }';

const legacyBody = () => ({
  amount: 1500, destination: 'MoMo', accountName: 'Jane Wanjiku', accountNumber: '254712345678',
  reference: `legacy-${randomUUID()}`, currency: 'KES', country: 'KE', code: 'MPESA',
});
const customerBody = () => ({
  externalId: `user-${randomUUID()}`, firstName: 'Amina', lastName: 'Odhiambo', country: 'KE', dateOfBirth: '1990-04-12',
  idType: 'NATIONAL_ID', idNumber: '12345678',
});

/** Until real rails exist, a live tenant is refused, never served by the sandbox. */
describe('live tenants and the sandbox', () => {
  let service: TestService;
  let admin: string;
  beforeAll(async () => {
    service = await startTestService();
    admin = await service.newAdminKey();
  });
  afterAll(() => service.close());

  const sql = <T>(text: string, params: unknown[] = []) => service.database.orm.em.fork().getConnection().execute(text, params) as Promise<T[]>;
  const count = async (table: string, tenantId: string) => (await sql<{ n: number }>(`select count(*)::int as n from ${table} where tenant_id = ?`, [tenantId]))[0]!.n;

  /** A live tenant made as an operator would: admin API, issuer key, a valid deposit, a refund address. */
  async function liveTenant(): Promise<{ tenantId: string; apiKey: string }> {
    const call = (method: string, path: string, body: unknown) => service.call(method, path, { apiKey: admin, body });
    const tenantId = (await call('POST', '/v1/admin/tenants', { name: `Live ${randomUUID()}`, environment: 'live' })).body.tenantId;
    const apiKey = (await call('POST', `/v1/admin/tenants/${tenantId}/api-keys`, { scope: 'issuer' })).body.apiKey;
    expect((await call('POST', `/v1/admin/tenants/${tenantId}/deposits`, { currency: 'USDC', amount: 10000, blockchain: 'SOLANA', txHash: solanaTxHash() })).status).toBe(201);
    expect((await call('PATCH', `/v1/admin/tenants/${tenantId}`, { payoutRefundAddress: REFUND_ADDRESS })).status).toBe(200);
    return { tenantId, apiKey };
  }

  it('refuses each money-out path with corridor_not_available (no provider configured) and customer creation with provider_unavailable, writing nothing', async () => {
    const { tenantId, apiKey } = await liveTenant();
    const ledgerBefore = await count('ledger_transactions', tenantId);
    const outboxBefore = await count('outbox_events', tenantId); // the correction's deposit.credited
    const shapeA = (statusCode: number, code: string) => ({ statusCode, code, message: expect.any(String), details: { requestId: expect.any(String) } });

    const rest = await service.call('POST', '/v1/payments/moneyout', { apiKey, body: moneyOutBody(), headers: { 'idempotency-key': randomUUID() } });
    expect([rest.status, rest.body, rest.headers.get('retry-after')]).toEqual([422, shapeA(422, 'corridor_not_available'), null]);
    const legacy = await service.call('POST', '/momo/payout', { apiKey, body: legacyBody() });
    expect([legacy.status, legacy.body]).toEqual([422, {
      error: { code: 'corridor_not_available' }, message: expect.any(String), statusCode: 422, details: { requestId: expect.any(String) }, code: 'corridor_not_available',
    }]);
    const customer = await service.call('POST', '/v1/customers', { apiKey, body: customerBody() });
    expect([customer.status, customer.body]).toEqual([503, shapeA(503, 'provider_unavailable')]);
    for (const [query, variables, code] of [
      [MONEY_OUT, { input: moneyOutBody(), key: randomUUID() }, 'corridor_not_available'],
      [LEGACY, { input: { ...legacyBody(), destination: 'MOMO', amount: '1500' } }, 'corridor_not_available'],
      [CUSTOMER, { input: customerBody() }, 'provider_unavailable'],
    ] as const) {
      const res = await gql(service.baseUrl, query, variables, apiKey);
      expect({ query, data: res.body.data, code: res.body.errors?.[0]?.extensions?.code }).toEqual({ query, data: null, code });
    }

    for (const table of ['payments', 'customers', 'idempotency_keys']) expect({ table, rows: await count(table, tenantId) }).toEqual({ table, rows: 0 });
    expect(await count('outbox_events', tenantId)).toBe(outboxBefore);
    expect(await count('ledger_transactions', tenantId)).toBe(ledgerBefore);
    const usdc = (await service.call('GET', '/v1/balances', { apiKey })).body.find((b: { currency: string }) => b.currency === 'USDC');
    expect(usdc).toEqual({ currency: 'USDC', available: '10000.000000', held: '0.000000', inTransit: '0.000000' });
  });

  it('a sandbox tenant is served as before', async () => {
    const { apiKey } = await service.newTenant();
    const paid = await service.call('POST', '/v1/payments/moneyout', { apiKey, body: moneyOutBody(), headers: { 'idempotency-key': randomUUID() } });
    expect(paid.status).toBe(201);
    expect((await service.call('POST', '/momo/payout', { apiKey, body: legacyBody() })).status).toBe(200);
    expect((await service.call('POST', '/v1/customers', { apiKey, body: customerBody() })).status).toBe(201);
    await eventually(async () => ((await service.call('GET', `/v1/payments/${paid.body.id}`, { apiKey })).body.status === 'succeeded' ? true : undefined));
  });

  it('the payout worker leaves a pre-existing live payment where it is instead of simulating it', async () => {
    const { tenantId } = await liveTenant();
    const template = await service.newTenant();
    const made = await service.call('POST', '/v1/payments/moneyout', { apiKey: template.apiKey, body: moneyOutBody(), headers: { 'idempotency-key': randomUUID() } });
    // A live tenant's payment from before the fix: a copy of a sandbox one, due now, never submitted.
    const id = `pay_${randomUUID().replace(/-/g, '').slice(0, 26).toUpperCase()}`;
    const enqueuedAt = new Date();
    await sql(
      `insert into payments select (jsonb_populate_record(p, jsonb_build_object(
         'id', ?::text, 'tenant_id', ?::text, 'reference', ?::text, 'status', 'initiated', 'provider_ref', null,
         'accepted_at', null, 'attempts', 0, 'next_action_at', ?::timestamptz))).* from payments p where p.id = ?`,
      [id, tenantId, `live-${randomUUID()}`, enqueuedAt, made.body.id]);
    // Workers claim it, find no provider for a live tenant, and push it back by an hour.
    const row = await eventually(async () => {
      const [p] = await sql<{ status: string; provider_ref: string | null; attempts: number; next_action_at: Date }>(
        'select status, provider_ref, attempts, next_action_at from payments where id = ?', [id]);
      return p && p.attempts > 0 && new Date(p.next_action_at).getTime() > enqueuedAt.getTime() + 30 * 60_000 ? p : undefined;
    });
    expect(row).toMatchObject({ status: 'initiated', provider_ref: null });
    expect(await sql('select id from ledger_transactions where payment_id = ?', [id])).toEqual([]);
  });

  it('the KYC worker leaves a pre-existing live customer pending instead of asking the sandbox', async () => {
    const { tenantId } = await liveTenant();
    const template = await service.newTenant('0');
    const made = await service.call('POST', '/v1/customers', { apiKey: template.apiKey, body: customerBody() });
    const id = `cus_${randomUUID().replace(/-/g, '').slice(0, 26).toUpperCase()}`;
    const enqueuedAt = new Date();
    await sql(
      `insert into customers select (jsonb_populate_record(c, jsonb_build_object(
         'id', ?::text, 'tenant_id', ?::text, 'external_id', ?::text, 'kyc_status', 'pending', 'kyc_reason', null,
         'next_check_at', ?::timestamptz))).* from customers c where c.id = ?`,
      [id, tenantId, `live-${randomUUID()}`, enqueuedAt, made.body.id]);
    const row = await eventually(async () => {
      const [c] = await sql<{ kyc_status: string; next_check_at: Date }>('select kyc_status, next_check_at from customers where id = ?', [id]);
      return c && new Date(c.next_check_at).getTime() > enqueuedAt.getTime() + 30 * 60_000 ? c : undefined;
    });
    expect(row.kyc_status).toBe('pending');
  });
});
