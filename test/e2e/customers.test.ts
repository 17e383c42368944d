import { eventually, startTestService, type TestService } from '../support/test-service';
import { startReceiver, type Receiver } from '../support/receiver';

describe('customers and KYC', () => {
  let service: TestService;
  let hook: Receiver;
  beforeAll(async () => {
    service = await startTestService({ KYC_SANDBOX_DELAY_MS: '50' });
    hook = await startReceiver();
  });
  afterAll(async () => {
    await service.close();
    await hook.close();
  });

  const body = (o: Record<string, unknown> = {}) => ({
    externalId: `user-${Math.random()}`, firstName: 'Amina', lastName: 'Odhiambo', country: 'KE', dateOfBirth: '1990-04-12',
    idType: 'NATIONAL_ID', idNumber: '12345678', ...o,
  });

  it('creates a pending customer, approves it, and sends customer.kyc.updated', async () => {
    const { apiKey } = await service.newTenant('0');
    await service.call('POST', '/v1/webhooks/register', { apiKey, body: { url: hook.url, events: ['customer.kyc.updated'] } });
    const created = await service.call('POST', '/v1/customers', { apiKey, body: body() });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: expect.stringMatching(/^cus_/), kycStatus: 'pending', idNumberLast4: '5678', kycReason: null });
    expect(created.text).not.toContain('12345678');
    const approved = await eventually(async () => {
      const c = await service.call('GET', `/v1/customers/${created.body.id}`, { apiKey });
      return c.body.kycStatus === 'approved' ? c.body : undefined;
    });
    expect(approved.updatedAt >= created.body.updatedAt).toBe(true);
    const delivered = await eventually(async () => hook.received.find((r) => JSON.parse(r.body).data.id === created.body.id));
    expect(JSON.parse(delivered.body)).toMatchObject({ type: 'customer.kyc.updated', data: { id: created.body.id, kycStatus: 'approved' } });
  });

  it('rejects an id number ending 0000', async () => {
    const { apiKey } = await service.newTenant('0');
    const created = await service.call('POST', '/v1/customers', { apiKey, body: body({ idNumber: 'AB120000' }) });
    const rejected = await eventually(async () => {
      const c = await service.call('GET', `/v1/customers/${created.body.id}`, { apiKey });
      return c.body.kycStatus === 'rejected' ? c.body : undefined;
    });
    expect(rejected.kycReason).toEqual(expect.any(String));
  });

  it('validates, refuses duplicates, pages, and isolates tenants', async () => {
    const { apiKey } = await service.newTenant('0');
    for (const bad of [body({ dateOfBirth: '1990-02-30' }), body({ dateOfBirth: new Date().toISOString().slice(0, 10) }), body({ country: 'KEN' }), body({ idType: 'LIBRARY_CARD' }), body({ firstName: ' ' })]) {
      const res = await service.call('POST', '/v1/customers', { apiKey, body: bad });
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'validation_error' });
    }
    const first = body();
    expect((await service.call('POST', '/v1/customers', { apiKey, body: first })).status).toBe(201);
    const dup = await service.call('POST', '/v1/customers', { apiKey, body: first });
    expect({ status: dup.status, code: dup.body.code }).toEqual({ status: 409, code: 'duplicate_customer' });
    await service.call('POST', '/v1/customers', { apiKey, body: body() });
    await service.call('POST', '/v1/customers', { apiKey, body: body() });
    const page1 = await service.call('GET', '/v1/customers?limit=2', { apiKey });
    expect(page1.body).toHaveLength(2);
    const next = /^<([^>]+)>/.exec(page1.headers.get('link')!)![1]!;
    const page2 = await service.call('GET', next, { apiKey });
    expect(page2.body).toHaveLength(1);
    const other = await service.newTenant('0');
    expect((await service.call('GET', `/v1/customers/${page1.body[0].id}`, { apiKey: other.apiKey })).status).toBe(404);
    expect((await service.call('GET', '/v1/customers', { apiKey: other.apiKey })).body).toEqual([]);
  });
});
