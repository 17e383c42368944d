import { randomUUID } from 'node:crypto';
import { eventually, moneyOutBody, startTestService, type TestService } from '../support/test-service';
import { solanaTxHash } from '../support/tx-hashes';

describe('admin', () => {
  let service: TestService;
  let adminKey: string;
  beforeAll(async () => {
    service = await startTestService();
    adminKey = await service.newAdminKey();
  });
  afterAll(() => service.close());

  // Every row has three cells: a two-cell row would make jest pass `done` as the third argument.
  const ADMIN_ROUTES: [string, string, unknown][] = [
    ['POST', '/v1/admin/tenants', { name: 'x' }],
    ['GET', '/v1/admin/tenants', undefined],
    ['PATCH', '/v1/admin/tenants/ten_x', { rateLimitPerMinute: 5 }],
    ['POST', '/v1/admin/tenants/ten_x/api-keys', { scope: 'issuer' }],
    ['GET', '/v1/admin/tenants/ten_x/api-keys', undefined],
    ['DELETE', '/v1/admin/api-keys/key_x', undefined],
    ['POST', '/v1/admin/tenants/ten_x/deposits', { currency: 'USDC', amount: 1, blockchain: 'SOLANA', txHash: 'h' }],
    ['GET', '/v1/admin/payments/pay_x', undefined],
    ['POST', '/v1/admin/payments/pay_x/simulate', { outcome: 'succeeded' }],
  ];

  it.each(ADMIN_ROUTES)('%s %s: 401 without a key, 403 with an issuer key', async (method, path, body) => {
    const { apiKey } = await service.newTenant('0');
    const anonymous = await service.call(method, path, { body });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe('unauthorized');
    const issuer = await service.call(method, path, { apiKey, body });
    expect(issuer.status).toBe(403);
    expect(issuer.body).toEqual({ statusCode: 403, code: 'forbidden', message: expect.any(String), details: { requestId: expect.any(String) } });
  });

  it('creates a tenant, issues a key shown once, funds it, and revokes the key at once', async () => {
    const tenant = await service.call('POST', '/v1/admin/tenants', { apiKey: adminKey, body: { name: 'Acme Wallet' } });
    expect(tenant.status).toBe(201);
    const tenantId = tenant.body.tenantId;
    expect(tenantId).toMatch(/^ten_/);
    const issued = await service.call('POST', `/v1/admin/tenants/${tenantId}/api-keys`, { apiKey: adminKey, body: { scope: 'issuer' } });
    expect(issued.status).toBe(201);
    const apiKey = issued.body.apiKey;
    expect(apiKey).toMatch(/^sk_sandbox_[A-Za-z0-9]{40}$/);

    const broke = await service.call('POST', '/v1/payments/moneyout', { apiKey, body: moneyOutBody(), headers: { 'idempotency-key': randomUUID() } });
    expect(broke.body.code).toBe('insufficient_balance');
    const txHash = solanaTxHash();
    const deposit = { currency: 'USDC', amount: 500, blockchain: 'SOLANA', txHash };
    expect((await service.call('POST', `/v1/admin/tenants/${tenantId}/deposits`, { apiKey: adminKey, body: deposit })).status).toBe(201);
    const again = await service.call('POST', `/v1/admin/tenants/${tenantId}/deposits`, { apiKey: adminKey, body: deposit });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('duplicate_deposit');
    const balances = await service.call('GET', '/v1/balances', { apiKey });
    expect(balances.body.find((b: { currency: string }) => b.currency === 'USDC').available).toBe('500.000000');

    const listed = await service.call('GET', `/v1/admin/tenants/${tenantId}/api-keys`, { apiKey: adminKey });
    expect(listed.body).toHaveLength(1);
    expect(listed.text).not.toContain(apiKey);
    expect(listed.body[0].prefix).toBe(`${apiKey.slice(0, 23)}...`);

    expect((await service.call('DELETE', `/v1/admin/api-keys/${issued.body.keyId}`, { apiKey: adminKey })).status).toBe(204);
    const refused = await service.call('GET', '/v1/balances', { apiKey });
    expect(refused.status).toBe(401);
    expect((await service.call('DELETE', '/v1/admin/api-keys/key_nope', { apiKey: adminKey })).status).toBe(404);
  });

  it('reads any tenant payment and simulates a held sandbox payout', async () => {
    const { apiKey, tenantId } = await service.newTenant();
    const created = await service.call('POST', '/v1/payments/moneyout', {
      apiKey, body: moneyOutBody({ accountNumber: '254712343333' }), headers: { 'idempotency-key': randomUUID() },
    });
    const id = created.body.id;
    const seen = await service.call('GET', `/v1/admin/payments/${id}`, { apiKey: adminKey });
    expect(seen.body).toMatchObject({ id, tenantId });
    await eventually(async () => ((await service.call('GET', `/v1/payments/${id}`, { apiKey })).body.status === 'provider_accepted' ? true : undefined));
    const simulated = await service.call('POST', `/v1/admin/payments/${id}/simulate`, { apiKey: adminKey, body: { outcome: 'refunded' } });
    expect(simulated.status).toBe(200);
    expect(simulated.body).toMatchObject({ id, status: 'refunded', failureReason: expect.stringContaining('Simulated') });
    const twice = await service.call('POST', `/v1/admin/payments/${id}/simulate`, { apiKey: adminKey, body: { outcome: 'succeeded' } });
    expect(twice.status).toBe(409);
    expect(twice.body.code).toBe('invalid_state');
    const bad = await service.call('POST', `/v1/admin/payments/${id}/simulate`, { apiKey: adminKey, body: { outcome: 'exploded' } });
    expect(bad.status).toBe(400);
  });

  it('refuses an admin key without a tenant on issuer routes', async () => {
    const res = await service.call('GET', '/v1/balances', { apiKey: adminKey });
    expect(res.status).toBe(403);
  });
});

describe('revocation across replicas', () => {
  it('refuses a revoked key at once on another replica that had it cached', async () => {
    const a = await startTestService({ AUTH_CACHE_TTL_MS: '60000' });
    const b = await startTestService({ AUTH_CACHE_TTL_MS: '60000' });
    try {
      const admin = await a.newAdminKey();
      const { tenantId } = await a.newTenant();
      const issued = await a.call('POST', `/v1/admin/tenants/${tenantId}/api-keys`, { apiKey: admin, body: { scope: 'issuer' } });
      expect((await b.call('GET', '/v1/balances', { apiKey: issued.body.apiKey })).status).toBe(200);
      expect((await a.call('DELETE', `/v1/admin/api-keys/${issued.body.keyId}`, { apiKey: admin })).status).toBe(204);
      await eventually(async () => ((await b.call('GET', '/v1/balances', { apiKey: issued.body.apiKey })).status === 401 ? true : undefined), 2000);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
