import { randomUUID } from 'node:crypto';
import { eventually, startTestService, type TestService } from '../support/test-service';

describe('POST /momo/payout (legacy payout)', () => {
  let service: TestService;
  let apiKey: string;
  beforeAll(async () => {
    service = await startTestService();
    ({ apiKey } = await service.newTenant());
  });
  afterAll(() => service.close());

  const body = (overrides: Record<string, unknown> = {}) => ({
    amount: 1500, destination: 'MoMo', accountName: 'Jane Wanjiku', accountNumber: '254712345678',
    reference: `legacy-${randomUUID()}`, currency: 'KES', country: 'KE', code: 'MPESA', ...overrides,
  });
  const payout = (b: unknown, key = apiKey) => service.call('POST', '/momo/payout', { apiKey: key, body: b });

  it('creates a payment that reaches succeeded and shows in GET /v1/payments', async () => {
    const res = await payout(body());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, transactionId: expect.stringMatching(/^pay_/) });
    const done = await eventually(async () => {
      const p = await service.call('GET', `/v1/payments/${res.body.transactionId}`, { apiKey });
      return p.body.status === 'succeeded' ? p.body : undefined;
    });
    expect(done).toMatchObject({ paymentMethod: 'MOMO', fiatAmount: '1500.00', destinationCurrency: 'KES', sourceCurrency: 'USDC' });
  });

  it('deduplicates by reference: same body returns the same payout, another body is 409 shape B', async () => {
    const b = body();
    const first = await payout(b);
    const again = await payout(b);
    expect(again.status).toBe(200);
    expect(again.body.transactionId).toBe(first.body.transactionId);
    const other = await payout({ ...b, amount: 1600 });
    expect(other.status).toBe(409);
    expect(other.body).toEqual({ error: { code: 'duplicate_reference' }, message: expect.any(String), statusCode: 409, details: { requestId: expect.any(String) }, code: 'duplicate_reference' });
  });

  it.each([
    ['Bank', '123456789', 400], ['Bank', '1234567890', 200], ['Bank', '1234567890123456', 200], ['Bank', '12345678901234567', 400],
  ])('%s account number %s answers %i', async (destination, accountNumber, status) => {
    const res = await payout(body({ destination, accountNumber, currency: 'NGN', country: 'NG', code: '100004', amount: 5000 }));
    expect(res.status).toBe(status);
    if (status === 400) expect(res.body).toEqual({ statusCode: 400, code: 'validation_error', message: expect.stringContaining('10 to 16 digits'), details: { requestId: expect.any(String), fields: expect.any(Array) } });
  });

  it.each([['12345', 400], ['123456', 200], ['1234567', 400]])('Till %s answers %i', async (accountNumber, status) => {
    expect((await payout(body({ destination: 'Till', accountNumber }))).status).toBe(status);
  });

  it('needs a 6-digit businessNumber for Paybill, and accepts 1-20 character accounts', async () => {
    expect((await payout(body({ destination: 'Paybill', accountNumber: 'ACC-42' }))).status).toBe(400);
    expect((await payout(body({ destination: 'Paybill', accountNumber: 'ACC-42', businessNumber: '12345' }))).status).toBe(400);
    expect((await payout(body({ destination: 'Paybill', accountNumber: 'ACC-42', businessNumber: '123456' }))).status).toBe(200);
    expect((await payout(body({ destination: 'Paybill', accountNumber: 'A'.repeat(21), businessNumber: '123456' }))).status).toBe(400);
  });

  it('pays out in ETB to Ethiopia', async () => {
    const res = await payout(body({ destination: 'Bank', accountNumber: '1000123456', currency: 'ETB', country: 'ET', code: '100004', amount: 2000 }));
    expect(res.status).toBe(200);
    const payment = await service.call('GET', `/v1/payments/${res.body.transactionId}`, { apiKey });
    expect(payment.body).toMatchObject({ destinationCurrency: 'ETB', paymentMethod: 'BANK', fiatAmount: '2000.00' });
  });

  it('refuses a code the country does not offer (400 A) and a currency the country does not use (422 B)', async () => {
    const wrongCode = await payout(body({ code: 'MTN' }));
    expect(wrongCode.status).toBe(400);
    expect(wrongCode.body.code).toBe('validation_error');
    const wrongCurrency = await payout(body({ currency: 'NGN' }));
    expect(wrongCurrency.status).toBe(422);
    expect(wrongCurrency.body).toMatchObject({ error: { code: 'unsupported_corridor' }, statusCode: 422, details: {} });
  });

  it('answers 422 shape B when the balance does not cover it', async () => {
    const poor = await service.newTenant('1');
    const res = await payout(body(), poor.apiKey);
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('insufficient_balance');
  });

  it('validates shape and enums in shape A', async () => {
    for (const bad of [body({ destination: 'Cash' }), body({ currency: 'USD' }), body({ amount: -1 }), body({ reference: '' })]) {
      const res = await payout(bad);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('validation_error');
    }
  });
});
