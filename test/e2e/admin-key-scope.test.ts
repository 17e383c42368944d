import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { generateApiKey, storedKey } from '../../src/app/api-keys';
import { sha256Hasher } from '../../src/adapters/providers/system';
import { gql } from '../support/graphql-client';
import { startTestService, type TestService } from '../support/test-service';

/** Admin keys are platform keys: no tenant can hold one, by any path. */
describe('admin keys belong to no tenant', () => {
  let service: TestService;
  let admin: string;
  beforeAll(async () => {
    service = await startTestService();
    admin = await service.newAdminKey();
  });
  afterAll(() => service.close());

  const keysOf = async (tenantId: string) =>
    (await service.database.orm.em.fork().getConnection().execute('select scope from api_keys where tenant_id = ?', [tenantId])) as { scope: string }[];

  it('POST /v1/admin/tenants/{id}/api-keys {"scope":"admin"} is 400 validation_error on scope, and issues nothing', async () => {
    const { tenantId } = await service.newTenant('0');
    const res = await service.call('POST', `/v1/admin/tenants/${tenantId}/api-keys`, { apiKey: admin, body: { scope: 'admin', label: 'platform?' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ statusCode: 400, code: 'validation_error', message: expect.stringContaining('scope') });
    expect(await keysOf(tenantId)).toEqual([{ scope: 'issuer' }]);
    const issuer = await service.call('POST', `/v1/admin/tenants/${tenantId}/api-keys`, { apiKey: admin, body: { scope: 'issuer' } });
    expect(issuer.status).toBe(201);
    expect(issuer.body).toMatchObject({ scope: 'issuer', tenantId });
  });

  it('the CLI keys:create --scope admin is refused through the same use case, and issues nothing', async () => {
    const { tenantId } = await service.newTenant('0');
    const cli = promisify(execFile)('npx', ['ts-node', '--transpile-only', 'src/app/cli.ts', 'keys:create', '--tenant', tenantId, '--scope', 'admin'], {
      env: { ...process.env, DATABASE_URL: service.config.DATABASE_URL },
    });
    await expect(cli).rejects.toMatchObject({ stderr: expect.stringContaining('validation_error') });
    expect(await keysOf(tenantId)).toEqual([{ scope: 'issuer' }]);
  }, 60_000);

  it('the database refuses a live key whose scope and tenant disagree', async () => {
    const { tenantId } = await service.newTenant('0');
    const conn = service.database.orm.em.fork().getConnection();
    const insert = (scope: 'admin' | 'issuer', tenant: string | null, revokedAt: Date | null) => {
      const key = storedKey(generateApiKey('sandbox'), scope, tenant, 'forged', { ids: service.container.ids, hasher: sha256Hasher, now: new Date() });
      return conn.execute(
        'insert into api_keys (id, tenant_id, scope, lookup, secret_hash, label, created_at, revoked_at) values (?, ?, ?, ?, ?, ?, ?, ?)',
        [key.id, key.tenantId, key.scope, key.lookup, key.secretHash, key.label, key.createdAt, revokedAt]);
    };
    await expect(insert('admin', tenantId, null)).rejects.toThrow(/api_keys_scope_tenant_check/);
    await expect(insert('issuer', null, null)).rejects.toThrow(/api_keys_scope_tenant_check/);
    expect(await keysOf(tenantId)).toEqual([{ scope: 'issuer' }]);
  });

  it("a tenant's issuer key can neither credit its tenant nor read across tenants (REST and GraphQL)", async () => {
    const { tenantId, apiKey } = await service.newTenant('0');
    const credit = await service.call('POST', `/v1/admin/tenants/${tenantId}/deposits`, {
      apiKey, body: { currency: 'USDC', amount: '1000', blockchain: 'BSC', txHash: `0x${'1'.repeat(64)}` },
    });
    expect(credit.status).toBe(403);
    expect((await service.call('GET', '/v1/admin/tenants', { apiKey })).status).toBe(403);
    const me = await gql(service.baseUrl, '{ me { tenantId scope } }', {}, apiKey);
    expect(me.body.data.me).toEqual({ tenantId, scope: 'ISSUER' });
  });
});
