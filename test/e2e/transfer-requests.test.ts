import { randomUUID } from 'node:crypto';
import { startTestService, type TestService } from '../support/test-service';

describe('transfer requests', () => {
  let service: TestService;
  let apiKey: string;
  beforeAll(async () => {
    service = await startTestService();
    ({ apiKey } = await service.newTenant('0'));
  });
  afterAll(() => service.close());

  const body = (overrides: Record<string, unknown> = {}) => ({
    recipient: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU', amount: 150.5, acquirerMerchantName: 'ACQ_1',
    reference: `trq-${randomUUID()}`, merchantID: 'merchant-42', ...overrides,
  });
  const create = (b: unknown, key = apiKey) => service.call('POST', '/tx/createTransferRequest', { apiKey: key, body: b });

  it('returns the acquirer deeplink with an opaque token and stores the request', async () => {
    const b = body({ description: 'Two tickets', currency: 'ZAR', terminalType: 'WEB', merchantCategoryCode: '02' });
    const res = await create(b);
    expect(res.status).toBe(200);
    expect(res.body.link).toMatch(/^https:\/\/pay\.acquirer-one\.example\/transfer\?token=/);
    const token = decodeURIComponent(new URL(res.body.link).searchParams.get('token')!);
    expect(token).toMatch(/^trt_[A-Za-z0-9_-]{32}$/);
    const state = await service.call('GET', `/tx/transferRequests/${encodeURIComponent(b.reference as string)}`, { apiKey });
    expect(state.body).toMatchObject({ reference: b.reference, status: 'pending', link: res.body.link, amount: '150.50', currency: 'ZAR', acquirerMerchantName: 'ACQ_1' });
  });

  it.each([[0.009, 400], [0.01, 200], [1.234, 400], [12, 200]])('amount %d answers %i', async (amount, status) => {
    const res = await create(body({ amount }));
    expect(res.status).toBe(status);
    if (status === 400) expect(res.body.code).toBe('validation_error');
  });

  it.each([
    ['description', 'd'.repeat(100), 200], ['description', 'd'.repeat(101), 400],
    ['customReference', 'c'.repeat(100), 200], ['customReference', 'c'.repeat(101), 400],
    ['successUrl', `https://m.example/${'u'.repeat(256 - 'https://m.example/'.length)}`, 200],
    ['successUrl', `https://m.example/${'u'.repeat(257 - 'https://m.example/'.length)}`, 400],
    ['webhookUrl', 'not a url', 400], ['merchantCategoryCode', '01', 200], ['merchantCategoryCode', '03', 400],
    ['acquirerMerchantName', 'ACQ_9', 400], ['currency', 'EUR', 400], ['terminalType', 'POS', 400], ['paymentProcessor', 'OTHER', 400],
  ])('%s %s answers %i', async (field, value, status) => {
    expect((await create(body({ [field]: value }))).status).toBe(status);
  });

  it('refuses a duplicate reference with 409 shape C, and hides other tenants', async () => {
    const b = body();
    expect((await create(b)).status).toBe(200);
    const again = await create(b);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: expect.any(String), error: 'duplicate_reference', details: expect.any(String), statusCode: 409, code: 'duplicate_reference' });
    const other = await service.newTenant('0');
    const peek = await service.call('GET', `/tx/transferRequests/${b.reference}`, { apiKey: other.apiKey });
    expect(peek.status).toBe(404);
    expect(peek.body).toMatchObject({ error: 'not_found', statusCode: 404 });
  });
});
