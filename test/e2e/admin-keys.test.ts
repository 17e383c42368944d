import { cliCommand, exitWithin, killChildren, spawnChild } from '../support/child-process';
import { startTestService, type TestService } from '../support/test-service';

jest.setTimeout(90_000);

/**
 * Platform admin keys (docs/decisions.md § Authentication, tenants and keys): issued by an admin
 * key or the operator CLI, bound to no tenant, listed and revoked like any key.
 */
describe('platform admin keys', () => {
  let service: TestService;
  let admin: string;
  beforeAll(async () => {
    service = await startTestService();
    admin = await service.newAdminKey();
  });
  afterEach(() => killChildren());
  afterAll(() => service.close());

  it('an admin key issues another admin key that has admin power, no tenant, and can be revoked', async () => {
    const issued = await service.call('POST', '/v1/admin/api-keys', { apiKey: admin, body: { label: 'rotation 2026-11' } });
    expect(issued.status).toBe(201);
    expect(issued.body).toMatchObject({ scope: 'admin', tenantId: null, label: 'rotation 2026-11', revokedAt: null });
    const fresh = issued.body.apiKey as string;
    expect(fresh).toMatch(/^sk_live_[A-Za-z0-9]{32,64}$/);

    expect((await service.call('GET', '/v1/admin/tenants', { apiKey: fresh })).status).toBe(200);
    // No tenant: issuer operations are forbidden to it.
    expect((await service.call('GET', '/v1/balances', { apiKey: fresh })).status).toBe(403);

    const listed = await service.call('GET', '/v1/admin/api-keys', { apiKey: admin });
    expect(listed.status).toBe(200);
    const entry = (listed.body as Array<{ keyId: string; prefix: string; apiKey?: string }>).find((k) => k.keyId === issued.body.keyId);
    expect(entry).toMatchObject({ prefix: `sk_live_${fresh.slice(8, 20)}...` });
    expect(entry?.apiKey).toBeUndefined();

    expect((await service.call('DELETE', `/v1/admin/api-keys/${issued.body.keyId}`, { apiKey: admin })).status).toBe(204);
    expect((await service.call('GET', '/v1/admin/tenants', { apiKey: fresh })).status).toBe(401);
  });

  it('an issuer key cannot issue or list admin keys; unknown body fields are refused', async () => {
    const { apiKey } = await service.newTenant('0');
    expect((await service.call('POST', '/v1/admin/api-keys', { apiKey, body: {} })).status).toBe(403);
    expect((await service.call('GET', '/v1/admin/api-keys', { apiKey })).status).toBe(403);
    const refused = await service.call('POST', '/v1/admin/api-keys', { apiKey: admin, body: { tenantId: 'ten_x' } });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('validation_error');
  });

  it('the operator CLI issues a working admin key', async () => {
    const child = spawnChild(...cliCommand('admin-keys:create', '--label', 'from the CLI'), {
      DATABASE_URL: service.config.DATABASE_URL!,
    });
    const exit = await exitWithin(child, 60_000);
    expect(exit?.code).toBe(0);
    const made = JSON.parse(child.stdout.join('\n')) as { apiKey: string; scope: string; tenantId: null };
    expect(made).toMatchObject({ scope: 'admin', tenantId: null });
    expect((await service.call('GET', '/v1/admin/tenants', { apiKey: made.apiKey })).status).toBe(200);
  });
});
