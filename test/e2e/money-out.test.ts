import { randomUUID } from 'node:crypto';
import { eventually, moneyOutBody, startTestService, type TestService } from '../support/test-service';

describe('money-out over HTTP', () => {
  let service: TestService;
  let apiKey: string;

  beforeAll(async () => {
    service = await startTestService();
    ({ apiKey } = await service.newTenant());
  });
  afterAll(() => service.close());

  const create = (body: unknown, key: string = randomUUID()) =>
    service.call('POST', '/v1/payments/moneyout', { apiKey, body, headers: { 'idempotency-key': key } });

  const finalStatus = (id: string) =>
    eventually(async () => {
      const res = await service.call('GET', `/v1/payments/${id}`, { apiKey });
      return ['succeeded', 'failed', 'refunded'].includes(res.body.status) ? res.body : undefined;
    });

  it('creates a payment in initiated and the worker takes it to succeeded', async () => {
    const res = await create(moneyOutBody());
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: 'initiated', paymentMethod: 'MOMO', sourceCurrency: 'USDC', destinationCurrency: 'KES',
      fiatAmount: '1500.00', amountStablecoin: '12.115416', payoutFee: '0.510000', providerRef: null, failureReason: null,
    });
    expect(res.body.id).toMatch(/^pay_[0-9A-HJKMNP-TV-Z]{26}$/);
    const done = await finalStatus(res.body.id);
    expect(done.status).toBe('succeeded');
    expect(done.providerRef).toEqual(expect.any(String));
  });

  it.each([
    ['0000', 'failed', null],
    ['1111', 'failed', 'sbx_'],
    ['2222', 'refunded', 'sbx_'],
  ])('account ending %s ends %s', async (magic, status, refPrefix) => {
    const res = await create(moneyOutBody({ accountNumber: `25471234${magic}` }));
    expect(res.status).toBe(201);
    const done = await finalStatus(res.body.id);
    expect(done.status).toBe(status);
    expect(done.failureReason).toEqual(expect.any(String));
    if (refPrefix) expect(done.providerRef).toMatch(/^sbx_/);
    else expect(done.providerRef).toBeNull();
  });

  it('holds an account ending 3333 in provider_accepted', async () => {
    const res = await create(moneyOutBody({ accountNumber: '254712343333' }));
    const accepted = await eventually(async () => {
      const r = await service.call('GET', `/v1/payments/${res.body.id}`, { apiKey });
      return r.body.status === 'provider_accepted' ? r.body : undefined;
    });
    // The worker has asked the provider since the acceptance: it answered pending and the payment
    // waits a minute for the next look (the sandbox's 3333 recheck), still accepted.
    const nextLookOf = async () => ((await service.database.orm.em.fork().getConnection().execute(
      'select next_action_at from payments where id = ?', [accepted.id])) as { next_action_at: Date }[])[0]!.next_action_at;
    await eventually(async () => (new Date(await nextLookOf()).getTime() > Date.now() + 30_000 ? true : undefined));
    const later = await service.call('GET', `/v1/payments/${accepted.id}`, { apiKey });
    expect(later.body.status).toBe('provider_accepted');
  });

  it('replays the identical body for the same key and body', async () => {
    const key = randomUUID();
    const body = moneyOutBody();
    const first = await create(body, key);
    const second = await create(body, key);
    expect(second.status).toBe(first.status);
    expect(second.text).toBe(first.text);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
  });

  it('refuses the same key with another body (422 idempotency_key_reused)', async () => {
    const key = randomUUID();
    await create(moneyOutBody(), key);
    const res = await create(moneyOutBody({ fiatAmount: 1600 }), key);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ statusCode: 422, code: 'idempotency_key_reused', message: expect.any(String) });
  });

  it('makes exactly one payment from 50 concurrent requests with one key', async () => {
    const key = randomUUID();
    const body = moneyOutBody();
    const results = await Promise.all(Array.from({ length: 50 }, () => create(body, key)));
    const created = results.filter((r) => r.status === 201);
    const busy = results.filter((r) => r.status === 409);
    expect(created.length + busy.length).toBe(50);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((r) => r.body.id)).size).toBe(1);
    for (const r of busy) {
      expect(r.body.code).toBe('idempotency_key_in_use');
      expect(r.headers.get('retry-after')).toBe('1');
    }
    const rows = await service.database.orm.em.fork().getConnection()
      .execute('select count(*)::int as n from payments where reference = ?', [body.reference]);
    expect(rows[0]!.n).toBe(1);
  });

  it('refuses a duplicate reference under another key (409 duplicate_reference)', async () => {
    const body = moneyOutBody();
    expect((await create(body)).status).toBe(201);
    const res = await create({ ...body, fiatAmount: 2000 });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('duplicate_reference');
  });

  it("answers 404 for another tenant's payment", async () => {
    const res = await create(moneyOutBody());
    const other = await service.newTenant();
    const peek = await service.call('GET', `/v1/payments/${res.body.id}`, { apiKey: other.apiKey });
    expect(peek.status).toBe(404);
    expect(peek.body).toEqual({ statusCode: 404, code: 'not_found', message: expect.any(String) });
  });
});
