import { startTestService, type TestService } from '../support/test-service';
import { asBrowser, newOperator, signIn, totpCode } from '../support/operator-session';

jest.setTimeout(60_000);

/**
 * Operator sign-in with password and TOTP, sessions, CSRF and roles on the admin API
 * (docs/decisions.md § Operators: sign-in, sessions, roles, audit log).
 */
describe('operator sessions', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service.close());

  const auditRows = async (filter: Record<string, string>) => {
    const rows = await service.container.operators.listAuditLog(filter, undefined, 50);
    return rows;
  };

  it('signs a local operator in with password and TOTP; the cookie is HttpOnly and SameSite=Strict', async () => {
    const op = await newOperator(service, 'viewer');
    const browser = await signIn(service, op);
    expect(browser.setCookie).toMatch(/HttpOnly/);
    expect(browser.setCookie).toMatch(/SameSite=Strict/);
    expect(browser.setCookie).toMatch(/Path=\//);
    expect(browser.setCookie).not.toMatch(/Secure/); // NODE_ENV=test: plain http
    const session = await asBrowser(service, browser)('GET', '/v1/operator/session');
    expect(session.status).toBe(200);
    expect(session.body.operator).toMatchObject({ operatorId: op.operatorId, email: op.email, role: 'viewer', status: 'active', signIn: 'local' });
    expect(session.body.operator.passwordHash).toBeUndefined();
    expect(session.body.csrfToken).toBe(browser.csrfToken);
    expect((await auditRows({ actorId: op.operatorId, action: 'signIn' }))).toHaveLength(1);
  });

  it('refuses a wrong password, a wrong code, a replayed code and an unknown e-mail with one answer', async () => {
    const op = await newOperator(service, 'viewer');
    const attempt = (body: Record<string, string>) => service.call('POST', '/v1/operator/sign-in', { body: { email: op.email, password: op.password, totpCode: totpCode(op.totpSecret), ...body } });
    const wrongPassword = await attempt({ password: 'not the password at all' });
    expect(wrongPassword.status).toBe(401);
    expect(wrongPassword.body.code).toBe('unauthorized');
    const code = totpCode(op.totpSecret);
    const wrongCode = await attempt({ totpCode: code === '000000' ? '111111' : '000000' });
    expect(wrongCode.status).toBe(401);
    const unknown = await attempt({ email: 'nobody@example.com' });
    expect(unknown.status).toBe(401);
    expect(unknown.body.message).toBe(wrongPassword.body.message);
    expect((await attempt({ totpCode: code })).status).toBe(200);
    const replay = await attempt({ totpCode: code });
    expect(replay.status).toBe(401);
    expect(replay.body.message).toBe(wrongPassword.body.message);
    expect((await attempt({ totpCode: 'abc' })).status).toBe(401);
    expect((await service.call('POST', '/v1/operator/sign-in', { body: { email: op.email } })).status).toBe(400);
  });

  it('refuses a write without the CSRF token, or with another, and writes nothing', async () => {
    const op = await newOperator(service, 'admin');
    const browser = await signIn(service, op);
    const call = asBrowser(service, browser);
    const name = `csrf-${Date.now()}`;
    const missing = await call('POST', '/v1/admin/tenants', { body: { name }, csrf: null });
    expect(missing.status).toBe(403);
    expect(missing.body).toMatchObject({ code: 'csrf_failed', statusCode: 403 });
    expect(missing.body.details.requestId).toEqual(expect.any(String));
    const other = await call('POST', '/v1/admin/tenants', { body: { name }, csrf: 'x'.repeat(43) });
    expect(other.body.code).toBe('csrf_failed');
    const tenants = await call('GET', '/v1/admin/tenants');
    expect(tenants.status).toBe(200);
    expect((tenants.body as { name: string }[]).some((t) => t.name === name)).toBe(false);
    const made = await call('POST', '/v1/admin/tenants', { body: { name } });
    expect(made.status).toBe(201);
    // A token of another session is refused too: tokens are bound to their session.
    const second = await signIn(service, op, 1);
    expect((await asBrowser(service, { ...browser, csrfToken: second.csrfToken })('POST', '/v1/admin/tenants', { body: { name: `${name}-b` } })).body.code).toBe('csrf_failed');
  });

  it('checks every write against the role on the server: viewer reads, operator works queues, admin manages', async () => {
    const viewer = asBrowser(service, await signIn(service, await newOperator(service, 'viewer')));
    const operator = asBrowser(service, await signIn(service, await newOperator(service, 'operator')));
    const admin = asBrowser(service, await signIn(service, await newOperator(service, 'admin')));
    const { tenantId } = await service.newTenant();

    for (const call of [viewer, operator, admin]) {
      expect((await call('GET', '/v1/admin/tenants')).status).toBe(200);
      expect((await call('GET', '/v1/admin/refunds')).status).toBe(200);
    }
    const refusals: [typeof viewer, string, string, unknown][] = [
      [viewer, 'POST', '/v1/admin/refunds/rfd_01JD4YB2C4E6G8J0L2N4Q6S8U0/retry', undefined],
      [viewer, 'POST', '/v1/admin/compliance-reviews/pay_01JD4YB2C4E6G8J0L2N4Q6S8U0/clear', { reason: 'false positive' }],
      [viewer, 'PATCH', `/v1/admin/tenants/${tenantId}`, { name: 'renamed' }],
      [operator, 'PATCH', `/v1/admin/tenants/${tenantId}`, { name: 'renamed' }],
      [operator, 'POST', `/v1/admin/tenants/${tenantId}/api-keys`, { scope: 'issuer' }],
      [operator, 'POST', '/v1/admin/rates/spreads', { country: 'KE', paymentMethod: 'mobile_money', percent: '0.5', reason: 'test' }],
      [operator, 'POST', '/v1/admin/operators', { email: 'x@example.com', role: 'admin', password: 'a long enough password' }],
      [operator, 'GET', '/v1/admin/audit-log', undefined],
      [viewer, 'GET', '/v1/admin/operators', undefined],
    ];
    for (const [call, method, path, body] of refusals) {
      const res = await call(method, path, { body });
      expect({ path, status: res.status, code: res.body.code }).toEqual({ path, status: 403, code: 'forbidden' });
    }
    // The operator passes the role check on its queues (the refund does not exist).
    expect((await operator('POST', '/v1/admin/refunds/rfd_01JD4YB2C4E6G8J0L2N4Q6S8U0/retry')).status).toBe(404);
    const renamed = await admin('PATCH', `/v1/admin/tenants/${tenantId}`, { body: { name: 'renamed by admin' } });
    expect(renamed.status).toBe(200);
    expect((await service.container.admin.listTenants()).find((t) => t.tenantId === tenantId)?.name).toBe('renamed by admin');
  });

  it('records who did what with before, after and the request id; admin keys are recorded by key id', async () => {
    const op = await newOperator(service, 'admin');
    const browser = await signIn(service, op);
    const { tenantId } = await service.newTenant();
    const res = await asBrowser(service, browser)('PATCH', `/v1/admin/tenants/${tenantId}`, { body: { rateLimitPerMinute: 77 } });
    expect(res.status).toBe(200);
    const [row] = await auditRows({ targetId: tenantId, action: 'updateTenant' });
    expect(row).toMatchObject({
      actor: { kind: 'session', id: op.operatorId, role: 'admin' }, targetType: 'tenant', targetId: tenantId,
      before: expect.objectContaining({ rateLimitPerMinute: null }), after: expect.objectContaining({ rateLimitPerMinute: 77 }),
      requestId: res.headers.get('request-id'),
    });

    const key = await service.newAdminKey();
    const byKey = await service.call('PATCH', `/v1/admin/tenants/${tenantId}`, { apiKey: key, body: { rateLimitPerMinute: 78 } });
    expect(byKey.status).toBe(200);
    const [latest] = await auditRows({ targetId: tenantId, action: 'updateTenant' });
    expect(latest).toMatchObject({ actor: { kind: 'admin_key', id: expect.stringMatching(/^key_[0-9A-Z]{26}$/), role: 'admin' }, before: expect.objectContaining({ rateLimitPerMinute: 77 }) });
    // The key id recorded is the key's: it revokes that very key.
    expect((await service.call('DELETE', `/v1/admin/api-keys/${latest!.actor.id}`, { apiKey: key })).status).toBe(204);
    expect((await service.call('GET', '/v1/admin/tenants', { apiKey: key })).status).toBe(401);

    // An issued key is recorded without the key itself.
    const issued = await asBrowser(service, browser)('POST', `/v1/admin/tenants/${tenantId}/api-keys`, { body: { scope: 'issuer' } });
    expect(issued.status).toBe(201);
    const [keyRow] = await auditRows({ targetId: issued.body.keyId });
    expect(keyRow?.action).toBe('issueApiKey');
    expect(JSON.stringify(keyRow)).not.toContain(issued.body.apiKey);
    // A refused call writes no row.
    expect((await asBrowser(service, browser)('PATCH', '/v1/admin/tenants/ten_01JD4YB2C4E6G8J0L2N4Q6S8U0', { body: { name: 'x' } })).status).toBe(404);
    expect(await auditRows({ targetId: 'ten_01JD4YB2C4E6G8J0L2N4Q6S8U0' })).toHaveLength(0);
  });

  it('signs out one session, and everywhere', async () => {
    const op = await newOperator(service, 'viewer');
    // Each code is accepted once and only after the last one used: steps -1, 0, 1 in this order.
    const first = await signIn(service, op, -1);
    const second = await signIn(service, op, 0);
    const out = await asBrowser(service, first)('POST', '/v1/operator/sign-out');
    expect(out.status).toBe(204);
    expect(out.headers.getSetCookie().join()).toMatch(/operator_session=;.*Max-Age=0/);
    expect((await asBrowser(service, first)('GET', '/v1/operator/session')).status).toBe(401);
    expect((await asBrowser(service, second)('GET', '/v1/operator/session')).status).toBe(200);

    const third = await signIn(service, op, 1);
    const everywhere = await asBrowser(service, second)('POST', '/v1/operator/sign-out-everywhere');
    expect(everywhere.body).toEqual({ sessionsEnded: 2 });
    expect((await asBrowser(service, second)('GET', '/v1/admin/tenants')).status).toBe(401);
    expect((await asBrowser(service, third)('GET', '/v1/admin/tenants')).status).toBe(401);
  });

  it('an admin disables an operator: its sessions end at once; enabling lets it sign in again; the last admin stays', async () => {
    const admin = asBrowser(service, await signIn(service, await newOperator(service, 'admin')));
    const op = await newOperator(service, 'operator');
    const browser = await signIn(service, op, -1);
    const disabled = await admin('PATCH', `/v1/admin/operators/${op.operatorId}`, { body: { status: 'disabled' } });
    expect(disabled.status).toBe(200);
    expect(disabled.body).toMatchObject({ status: 'disabled', role: 'operator' });
    expect((await asBrowser(service, browser)('GET', '/v1/operator/session')).status).toBe(401);
    expect((await service.call('POST', '/v1/operator/sign-in', { body: { email: op.email, password: op.password, totpCode: totpCode(op.totpSecret, 0) } })).status).toBe(401);
    const enabled = await admin('PATCH', `/v1/admin/operators/${op.operatorId}`, { body: { status: 'active', role: 'viewer' } });
    expect(enabled.body).toMatchObject({ status: 'active', role: 'viewer' });
    expect((await signIn(service, op, 1)).csrfToken).toEqual(expect.any(String));
    const [row] = await auditRows({ targetId: op.operatorId, action: 'updateOperator' });
    expect(row).toMatchObject({ before: expect.objectContaining({ status: 'disabled', role: 'operator' }), after: expect.objectContaining({ status: 'active', role: 'viewer' }) });
    expect((await admin('PATCH', '/v1/admin/operators/opr_01JD4YB2C4E6G8J0L2N4Q6S8U0', { body: { status: 'disabled' } })).status).toBe(404);
  });

  it('no session and no key: 401; a session cookie beside an Authorization header: the key decides', async () => {
    expect((await service.call('GET', '/v1/admin/tenants')).status).toBe(401);
    expect((await service.call('GET', '/v1/operator/session', { headers: { cookie: 'operator_session=forged' } })).status).toBe(401);
    const viewer = await signIn(service, await newOperator(service, 'viewer'));
    const key = await service.newAdminKey();
    const res = await service.call('POST', '/v1/admin/tenants', { apiKey: key, headers: { cookie: viewer.cookie }, body: { name: `by-key-${Date.now()}` } });
    expect(res.status).toBe(201);
  });
});
