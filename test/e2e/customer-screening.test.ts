import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gql } from '../support/graphql-client';
import { startReceiver, type Receiver } from '../support/receiver';
import { eventually, moneyOutBody, startTestService, type TestService } from '../support/test-service';

const CREATE_CUSTOMER = 'mutation C($input: CreateCustomerInput!) { createCustomer(input: $input) { id kycStatus kycReason } }';

/**
 * Customers screened at creation (docs/decisions.md § Screening: customers) over REST and GraphQL
 * with real PostgreSQL and the sandbox KYC provider: a listed name is created `pending` but held
 * in the one review queue (kind `customer`), never checked until cleared; clear lets the sandbox
 * approve it, reject makes it `rejected` (kycReason `compliance_rejected`) with its
 * `customer.kyc.updated` webhook; a name below the threshold is checked at once.
 */
describe('sanctions screening of customers', () => {
  let service: TestService;
  let hook: Receiver;
  let apiKey: string;
  let adminKey: string;

  beforeAll(async () => {
    service = await startTestService({ KYC_SANDBOX_DELAY_MS: '50' });
    hook = await startReceiver();
    ({ apiKey } = await service.newTenant('0'));
    adminKey = await service.newAdminKey();
    await service.call('POST', '/v1/webhooks/register', { apiKey, body: { url: hook.url, events: ['customer.kyc.updated'] } });
    const document = readFileSync(path.join(__dirname, '../fixtures/screening/ofac-sdn.xml'), 'utf8');
    expect((await service.call('POST', '/v1/admin/screening/lists', { apiKey: adminKey, body: { source: 'ofac-sdn', document } })).status).toBe(201);
    await eventually(async () => (service.container.screening.screen.loaded().length > 0 ? true : undefined));
  });
  afterAll(async () => {
    // The lists are global rows: later suites of this jest worker start without them.
    await service.database.orm.em.getConnection().execute('delete from screening_lists');
    await service.close();
    await hook.close();
  });

  const body = (firstName: string, lastName: string) => ({
    externalId: `user-${Math.random()}`, firstName, lastName, country: 'KE', dateOfBirth: '1970-04-12', idType: 'NATIONAL_ID', idNumber: '12345678',
  });
  const customer = async (id: string) => (await service.call('GET', `/v1/customers/${id}`, { apiKey })).body;
  const decided = (id: string, status: string) => eventually(async () => {
    const c = await customer(id);
    return c.kycStatus === status ? c : undefined;
  });
  const review = async (id: string) => {
    const res = await service.call('GET', '/v1/admin/compliance-reviews?kind=customer&limit=500', { apiKey: adminKey });
    return (res.body as { subjectId: string }[]).find((r) => r.subjectId === id) as Record<string, any> | undefined;
  };
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('REST: a listed name is held pending in the review queue and never checked; clear lets the KYC check approve it', async () => {
    const created = await service.call('POST', '/v1/customers', { apiKey, body: body('Vladimir', 'Petrovsky') });
    expect([created.status, created.body.kycStatus, created.body.kycReason]).toEqual([201, 'pending', null]);
    const id = created.body.id as string;
    expect(await review(id)).toMatchObject({
      kind: 'customer', subjectId: id, status: 'pending', clearable: true, hits: [{ kind: 'name', source: 'ofac-sdn', entryId: '90001', score: expect.any(Number) }],
    });
    // The sandbox decides in 50 ms: well past that, the held customer is still unchecked.
    await pause(400);
    expect((await customer(id)).kycStatus).toBe('pending');
    const cleared = await service.call('POST', `/v1/admin/compliance-reviews/${id}/clear`, { apiKey: adminKey, body: { reason: 'Born 1970, the listed person 1958' } });
    expect([cleared.status, cleared.body.status, cleared.body.kind]).toEqual([200, 'cleared', 'customer']);
    expect(cleared.body).toMatchObject({ decidedBy: expect.stringMatching(/^key_/), reason: 'Born 1970, the listed person 1958', decidedAt: expect.any(String) });
    expect((await decided(id, 'approved')).kycReason).toBeNull();
  });

  it('GraphQL: a reordered listed name is held; reject makes it rejected with compliance_rejected and its webhook', async () => {
    const created = await gql(service.baseUrl, CREATE_CUSTOMER, { input: body('Al Rashidi', 'Khalid Abdullah') }, apiKey);
    expect(created.body.errors).toBeUndefined();
    const id = created.body.data.createCustomer.id as string;
    expect(await review(id)).toMatchObject({ kind: 'customer', hits: [{ entryId: '90003' }] });
    const rejected = await service.call('POST', `/v1/admin/compliance-reviews/${id}/reject`, { apiKey: adminKey, body: { reason: 'Same person as entry 90003' } });
    expect([rejected.status, rejected.body.status, rejected.body.reason]).toEqual([200, 'rejected', 'Same person as entry 90003']);
    const final = await decided(id, 'rejected');
    expect(final.kycReason).toBe('compliance_rejected');
    const delivered = await eventually(async () => hook.received.find((r) => JSON.parse(r.body).data.id === id));
    expect(JSON.parse(delivered.body)).toMatchObject({ type: 'customer.kyc.updated', data: { id, kycStatus: 'rejected', kycReason: 'compliance_rejected' } });
    const again = await service.call('POST', `/v1/admin/compliance-reviews/${id}/clear`, { apiKey: adminKey, body: { reason: 'oops' } });
    expect([again.status, again.body.code]).toEqual([409, 'invalid_state']);
  });

  it('a common name below the threshold passes: no review, checked and approved at once', async () => {
    const created = await service.call('POST', '/v1/customers', { apiKey, body: body('Eric', 'Baraka') });
    expect(created.status).toBe(201);
    expect(await review(created.body.id)).toBeUndefined();
    await decided(created.body.id, 'approved');
  });

  it('the one queue lists payments and customers; kind filters', async () => {
    const funded = await service.newTenant();
    const payment = await service.call('POST', '/v1/payments/moneyout', {
      apiKey: funded.apiKey, body: moneyOutBody({ accountName: 'Vladimir Petrovsky' }), headers: { 'idempotency-key': randomUUID() },
    });
    const customerId = (await service.call('POST', '/v1/customers', { apiKey, body: body('Vladimir', 'Petrovsky') })).body.id as string;
    const queue = async (query: string) => ((await service.call('GET', `/v1/admin/compliance-reviews?limit=500${query}`, { apiKey: adminKey })).body as { kind: string; subjectId: string }[])
      .filter((r) => r.subjectId === payment.body.id || r.subjectId === customerId).map((r) => r.kind).sort();
    expect(await queue('')).toEqual(['customer', 'payment']);
    expect(await queue('&kind=payment')).toEqual(['payment']);
    expect(await queue('&kind=customer&status=pending')).toEqual(['customer']);
    const bad = await service.call('GET', '/v1/admin/compliance-reviews?kind=refund', { apiKey: adminKey });
    expect(bad.status).toBe(400);
  });
});
