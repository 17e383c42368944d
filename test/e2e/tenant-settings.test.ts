import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { SANDBOX_REFUND_ADDRESS } from '../../src/core/auth/tenant';
import { cliCommand } from '../support/child-process';
import { startTestService, type TestService } from '../support/test-service';
import { solanaTxHash } from '../support/tx-hashes';

const SOLANA = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
const EVM = `0x${'ab'.repeat(20)}`;

describe('PATCH /v1/admin/tenants/{tenantId}: payout settings and rate limit', () => {
  let service: TestService;
  let admin: string;
  beforeAll(async () => {
    service = await startTestService({ RATE_LIMIT_PER_MINUTE: '1000' });
    admin = await service.newAdminKey();
  });
  afterAll(() => service.close());

  const call = (method: string, path: string, body?: unknown, apiKey = admin) => service.call(method, path, { apiKey, ...(body !== undefined ? { body } : {}) });
  const tenantOf = async (tenantId: string) => (await call('GET', '/v1/admin/tenants')).body.find((t: { tenantId: string }) => t.tenantId === tenantId);

  /** A live tenant with an issuer key and 10,000 USDC deposited. */
  async function liveTenant(): Promise<{ tenantId: string; apiKey: string }> {
    const tenant = await call('POST', '/v1/admin/tenants', { name: `Live ${randomUUID()}`, environment: 'live' });
    const tenantId = tenant.body.tenantId;
    const key = await call('POST', `/v1/admin/tenants/${tenantId}/api-keys`, { scope: 'issuer' });
    expect((await call('POST', `/v1/admin/tenants/${tenantId}/deposits`, { currency: 'USDC', amount: 10000, blockchain: 'SOLANA', txHash: solanaTxHash() })).status).toBe(201);
    return { tenantId, apiKey: key.body.apiKey };
  }
  const legacyPayout = (apiKey: string) => service.call('POST', '/momo/payout', {
    apiKey,
    body: { amount: 1500, destination: 'MoMo', accountName: 'Jane Wanjiku', accountNumber: '254712345678', reference: `legacy-${randomUUID()}`, currency: 'KES', country: 'KE', code: 'MPESA' },
  });

  it('a new live tenant has no refund address; once an operator sets one, its legacy payouts get past that check (to 503 until live rails exist)', async () => {
    const { tenantId, apiKey } = await liveTenant();
    expect(await tenantOf(tenantId)).toMatchObject({ payoutRefundAddress: null, payoutSourceCurrency: 'USDC', payoutBlockchain: 'SOLANA', rateLimitPerMinute: null });
    const refused = await legacyPayout(apiKey);
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('tenant_not_configured');

    const patched = await call('PATCH', `/v1/admin/tenants/${tenantId}`, { payoutRefundAddress: SOLANA });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ tenantId, environment: 'live', payoutRefundAddress: SOLANA, payoutBlockchain: 'SOLANA' });
    expect(await tenantOf(tenantId)).toEqual(patched.body);

    const unserved = await legacyPayout(apiKey);
    expect(unserved.status).toBe(422);
    expect(unserved.body.error.code).toBe('corridor_not_available');
  });

  it('moves the payout chain and address together, and refuses an address of the other chain', async () => {
    const { tenantId } = await liveTenant();
    await call('PATCH', `/v1/admin/tenants/${tenantId}`, { payoutRefundAddress: SOLANA });
    const before = await tenantOf(tenantId);
    const mismatched = await call('PATCH', `/v1/admin/tenants/${tenantId}`, { payoutBlockchain: 'BSC' });
    expect(mismatched.status).toBe(400);
    expect(mismatched.body).toEqual({ statusCode: 400, code: 'validation_error', message: expect.stringContaining('payoutRefundAddress'), details: { requestId: expect.any(String), fields: expect.any(Array) } });
    expect(await tenantOf(tenantId)).toEqual(before);
    const moved = await call('PATCH', `/v1/admin/tenants/${tenantId}`, { payoutBlockchain: 'BSC', payoutRefundAddress: EVM, payoutSourceCurrency: 'USDT' });
    expect(moved.body).toMatchObject({ payoutBlockchain: 'BSC', payoutRefundAddress: EVM, payoutSourceCurrency: 'USDT' });
    const cleared = await call('PATCH', `/v1/admin/tenants/${tenantId}`, { payoutRefundAddress: null });
    expect(cleared.body).toMatchObject({ payoutBlockchain: 'BSC', payoutRefundAddress: null });
  });

  it.each([
    ['an empty patch', {}], ['an unknown field', { environment: 'sandbox' }], ['a blank name', { name: '  ' }],
    ['a limit of 0', { rateLimitPerMinute: 0 }], ['a limit over 1,000,000', { rateLimitPerMinute: 1_000_001 }],
    ['a fractional limit', { rateLimitPerMinute: 1.5 }], ['a malformed address', { payoutRefundAddress: '0OIl-not-base58' }],
    ['an unknown chain', { payoutBlockchain: 'ETH' }],
  ])('refuses %s with 400 shape A and changes nothing', async (_label, patch) => {
    const { tenantId } = await liveTenant();
    const before = await tenantOf(tenantId);
    const res = await call('PATCH', `/v1/admin/tenants/${tenantId}`, patch);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ statusCode: 400, code: 'validation_error', message: expect.any(String), details: { requestId: expect.any(String), fields: expect.any(Array) } });
    expect(await tenantOf(tenantId)).toEqual(before);
  });

  it('a live tenant cannot take the public sandbox refund address', async () => {
    const { tenantId } = await liveTenant();
    const res = await call('PATCH', `/v1/admin/tenants/${tenantId}`, { payoutRefundAddress: SANDBOX_REFUND_ADDRESS });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/sandbox/);
    expect((await tenantOf(tenantId)).payoutRefundAddress).toBeNull();
  });

  it('concurrent changes of different settings are all kept', async () => {
    const { tenantId } = await liveTenant();
    for (let i = 0; i < 10; i++) {
      await Promise.all([
        call('PATCH', `/v1/admin/tenants/${tenantId}`, { name: `Name ${i}` }),
        call('PATCH', `/v1/admin/tenants/${tenantId}`, { rateLimitPerMinute: 100 + i }),
        call('PATCH', `/v1/admin/tenants/${tenantId}`, { payoutSourceCurrency: i % 2 ? 'USDT' : 'USDC' }),
      ]);
      expect(await tenantOf(tenantId)).toMatchObject({ name: `Name ${i}`, rateLimitPerMinute: 100 + i, payoutSourceCurrency: i % 2 ? 'USDT' : 'USDC' });
    }
  });

  it('a changed limit keeps the requests already counted in the window', async () => {
    const { tenantId, apiKey } = await liveTenant();
    await call('PATCH', `/v1/admin/tenants/${tenantId}`, { rateLimitPerMinute: 3 });
    const balances = async () => (await service.call('GET', '/v1/balances', { apiKey })).status;
    expect([await balances(), await balances(), await balances(), await balances()]).toEqual([200, 200, 200, 429]);
    await call('PATCH', `/v1/admin/tenants/${tenantId}`, { rateLimitPerMinute: 6 });
    // 4 counted of 6 (the refused request counts too): two more are served, then 429.
    expect([await balances(), await balances(), await balances()]).toEqual([200, 200, 429]);
    await call('PATCH', `/v1/admin/tenants/${tenantId}`, { rateLimitPerMinute: 3 });
    expect(await balances()).toBe(429);
  });

  it('answers 404 for an unknown tenant', async () => {
    const res = await call('PATCH', '/v1/admin/tenants/ten_01JZZZZZZZZZZZZZZZZZZZZZZZ', { rateLimitPerMinute: 5 });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });

  it('a new rate limit applies at once on this replica; null returns to the default', async () => {
    const { tenantId, apiKey } = await liveTenant();
    expect((await call('PATCH', `/v1/admin/tenants/${tenantId}`, { rateLimitPerMinute: 2 })).body.rateLimitPerMinute).toBe(2);
    const balances = () => service.call('GET', '/v1/balances', { apiKey });
    expect((await balances()).status).toBe(200);
    expect((await balances()).status).toBe(200);
    const refused = await balances();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('ratelimit-policy')).toBe('2;w=60');
    expect((await call('PATCH', `/v1/admin/tenants/${tenantId}`, { rateLimitPerMinute: null })).body.rateLimitPerMinute).toBeNull();
    const after = await balances();
    expect(after.status).toBe(200);
    expect(after.headers.get('ratelimit-policy')).toBe('1000;w=60');
  });

  it('the operator CLI changes the same settings and refuses bad flags', async () => {
    const { tenantId } = await liveTenant();
    const cli = (...args: string[]) => promisify(execFile)(...cliCommand(...args), {
      env: { ...process.env, DATABASE_URL: service.config.DATABASE_URL },
    });
    const { stdout } = await cli('tenants:update', '--tenant', tenantId, '--rate-limit', '600', '--refund-address', SOLANA);
    expect(JSON.parse(stdout)).toMatchObject({ tenantId, rateLimitPerMinute: 600, payoutRefundAddress: SOLANA });
    expect(await tenantOf(tenantId)).toMatchObject({ rateLimitPerMinute: 600, payoutRefundAddress: SOLANA });
    await expect(cli('tenants:update', '--tenant', tenantId, '--rate-limit', 'lots')).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('validation_error') });
    const reset = await cli('tenants:update', '--tenant', tenantId, '--rate-limit', 'default', '--refund-address', 'none');
    expect(JSON.parse(reset.stdout)).toMatchObject({ rateLimitPerMinute: null, payoutRefundAddress: null });
  }, 60_000);
});
