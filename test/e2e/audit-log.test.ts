import { cliCommand, exitWithin, killChildren, spawnChild } from '../support/child-process';
import { asBrowser, newOperator, signIn } from '../support/operator-session';
import { startTestService, type TestService } from '../support/test-service';

jest.setTimeout(90_000);

/** The append-only audit log (docs/decisions.md § Operators: audit log): kept by PostgreSQL, read and exported by admins. */
describe('audit log', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterEach(() => killChildren());
  afterAll(() => service.close());

  const sql = (text: string, params: unknown[] = []) => service.database.orm.em.getConnection().execute(text, params);

  it('refuses UPDATE, DELETE and TRUNCATE in the database itself', async () => {
    const key = await service.newAdminKey();
    const { tenantId } = await service.newTenant();
    expect((await service.call('PATCH', `/v1/admin/tenants/${tenantId}`, { apiKey: key, body: { name: 'audited' } })).status).toBe(200);
    const [row] = await sql("select id, action from audit_log where target_id = ? and action = 'updateTenant'", [tenantId]) as { id: string; action: string }[];
    expect(row?.action).toBe('updateTenant');
    await expect(sql('update audit_log set action = ? where id = ?', ['nothing', row!.id])).rejects.toThrow(/append-only: UPDATE refused/);
    await expect(sql('delete from audit_log where id = ?', [row!.id])).rejects.toThrow(/append-only: DELETE refused/);
    await expect(sql('truncate audit_log')).rejects.toThrow(/append-only: TRUNCATE refused/);
    const [still] = await sql('select action from audit_log where id = ?', [row!.id]) as { action: string }[];
    expect(still?.action).toBe('updateTenant');
  });

  it('lists rows newest first with filters and a cursor, for admins only', async () => {
    const key = await service.newAdminKey();
    const { tenantId } = await service.newTenant();
    for (const limit of [11, 12, 13]) {
      expect((await service.call('PATCH', `/v1/admin/tenants/${tenantId}`, { apiKey: key, body: { rateLimitPerMinute: limit } })).status).toBe(200);
    }
    const first = await service.call('GET', `/v1/admin/audit-log?targetId=${tenantId}&action=updateTenant&limit=2`, { apiKey: key });
    expect(first.status).toBe(200);
    expect(first.body.data.map((r: { after: { rateLimitPerMinute: number } }) => r.after.rateLimitPerMinute)).toEqual([13, 12]);
    expect(first.body.data[0]).toMatchObject({ actorKind: 'admin_key', actorRole: 'admin', targetType: 'tenant', targetId: tenantId, action: 'updateTenant' });
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await service.call('GET', `/v1/admin/audit-log?targetId=${tenantId}&action=updateTenant&limit=2&cursor=${first.body.nextCursor}`, { apiKey: key });
    expect(second.body.data.map((r: { after: { rateLimitPerMinute: number } }) => r.after.rateLimitPerMinute)).toEqual([11]);
    expect(second.body.nextCursor).toBeNull();
    const bad = await service.call('GET', '/v1/admin/audit-log?cursor=bm90LWEtY3Vyc29y', { apiKey: key });
    expect(bad.status).toBe(400);
    expect(bad.body.details.fields).toEqual([{ path: 'query.cursor', message: 'Unknown cursor' }]);
    expect((await service.call('GET', '/v1/admin/audit-log?limit=0', { apiKey: key })).status).toBe(400);
    const viewer = await signIn(service, await newOperator(service, 'viewer'));
    expect((await asBrowser(service, viewer)('GET', '/v1/admin/audit-log')).status).toBe(403);
    const admin = await signIn(service, await newOperator(service, 'admin'));
    expect((await asBrowser(service, admin)('GET', `/v1/admin/audit-log?targetId=${tenantId}&action=updateTenant`)).body.data).toHaveLength(3);
  });

  it('records a name with a lone surrogate (jsonb refuses the escape) as U+FFFD, as the tenant row stores it', async () => {
    const key = await service.newAdminKey();
    const created = await service.call('POST', '/v1/admin/tenants', { apiKey: key, body: { name: 'a\ud800b' } });
    expect(created.status).toBe(201);
    const [row] = await service.container.operators.listAuditLog({ targetId: created.body.tenantId, action: 'createTenant' }, undefined, 1);
    expect((row?.after as { name: string }).name).toBe('a\uFFFDb');
  });

  it('exports the filtered log as CSV (RFC 4180 quoting)', async () => {
    const key = await service.newAdminKey();
    const created = await service.call('POST', '/v1/admin/tenants', { apiKey: key, body: { name: '=HYPERLINK("http://evil")' } });
    const tenantId = created.body.tenantId as string;
    await service.call('PATCH', `/v1/admin/tenants/${tenantId}`, { apiKey: key, body: { name: 'plain, with "quotes"' } });
    const res = await service.call('GET', `/v1/admin/audit-log/export?targetId=${tenantId}`, { apiKey: key });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = res.text.trim().split('\r\n');
    expect(lines[0]).toBe('id,at,actorKind,actorId,actorRole,action,targetType,targetId,before,after,reason,requestId');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(',updateTenant,tenant,');
    // The after snapshot is JSON in one quoted field: its quotes doubled.
    expect(lines[1]).toContain('""name"":""plain, with');
    expect(lines[2]).toContain(',createTenant,tenant,');
  });

  // The CLI seals the TOTP secret under the same key as the service (WEBHOOK_SECRET_KEY).
  const cliEnv = () => ({ DATABASE_URL: service.config.DATABASE_URL!, WEBHOOK_SECRET_KEY: service.config.WEBHOOK_SECRET_KEY! });

  it('the CLI creates an operator (password and TOTP secret shown once) and its changes are audited as cli:<user>', async () => {
    const email = `cli-${Date.now()}@example.com`;
    const child = spawnChild(...cliCommand('operators:create', '--email', email, '--role', 'operator'), cliEnv());
    expect((await exitWithin(child, 60_000))?.code).toBe(0);
    const made = JSON.parse(child.stdout.join('\n')) as { operatorId: string; role: string; totpSecret: string; otpauthUrl: string; password: string };
    expect(made).toMatchObject({ email, role: 'operator', status: 'active', signIn: 'local' });
    expect(made.otpauthUrl).toMatch(/^otpauth:\/\/totp\/.*secret=[A-Z2-7]+/);
    expect(made.password.length).toBeGreaterThanOrEqual(24);
    const browser = await signIn(service, { operatorId: made.operatorId, email, password: made.password, totpSecret: made.totpSecret });
    expect(browser.csrfToken).toEqual(expect.any(String));

    const disable = spawnChild(...cliCommand('operators:update', '--operator', made.operatorId, '--status', 'disabled'), cliEnv());
    expect((await exitWithin(disable, 60_000))?.code).toBe(0);
    expect((await asBrowser(service, browser)('GET', '/v1/operator/session')).status).toBe(401);
    const rows = await service.container.operators.listAuditLog({ targetId: made.operatorId }, undefined, 10);
    expect(rows.map((r) => [r.action, r.actor.kind])).toEqual([['signOutEverywhere', 'cli'], ['updateOperator', 'cli'], ['signIn', 'session'], ['createOperator', 'cli']]);
    expect(rows[0]!.actor.id).toMatch(/^cli:/);
    expect(JSON.stringify(rows)).not.toContain(made.password);
    expect(JSON.stringify(rows)).not.toContain(made.totpSecret);

    const bad = spawnChild(...cliCommand('operators:create', '--email', email, '--role', 'superuser'), cliEnv());
    expect((await exitWithin(bad, 60_000))?.code).toBe(2);
  });
});
