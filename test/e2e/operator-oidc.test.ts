import { freePort, startTestService, type TestService } from '../support/test-service';
import { killChildren, spawnChild, ROOT, type Child } from '../support/child-process';

jest.setTimeout(90_000);

/** A browser's cookies for one origin (name → value); enough for a redirect chain. */
class CookieJar {
  private readonly cookies = new Map<string, string>();
  take(headers: Headers): void {
    for (const line of headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (value === '' || /max-age=0/i.test(line) || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
  get(name: string): string | undefined {
    return this.cookies.get(name);
  }
}

/**
 * Operator sign-in through OpenID Connect (docs/decisions.md § Operators: sign-in, sessions, roles,
 * audit log) against a real provider (oidc-provider 9) run beside the service: authorization code
 * with PKCE, the role from the groups claim, and the refusals of a wrong audience and an expired ID token.
 */
describe('operator sign-in with OpenID Connect', () => {
  let service: TestService;
  let idp: Child;
  let issuer: string;
  const callback = (port: number) => `http://127.0.0.1:${port}/v1/operator/oidc/callback`;

  beforeAll(async () => {
    const [servicePort, idpPort] = [await freePort(), await freePort()];
    idp = spawnChild(process.execPath, ['test/support/oidc-test-provider.mjs'], { PORT: String(idpPort), REDIRECT_URI: callback(servicePort) }, ROOT);
    issuer = String((await idp.waitForLog((line) => line.ready === true, 30_000)).issuer);
    service = await startTestService({
      OIDC_ISSUER_URL: issuer, OIDC_CLIENT_ID: 'payout-console', OIDC_CLIENT_SECRET: 'console-client-secret-for-tests',
      OIDC_REDIRECT_URI: callback(servicePort), OIDC_ROLE_CLAIM: 'groups', OIDC_ROLE_MAP: 'payout-admins=admin,payout-support=viewer',
    }, {}, { port: servicePort });
  });
  afterAll(async () => {
    await service?.close();
    await killChildren();
  });

  const setProvider = (body: unknown) => fetch(`${issuer}/__test/state`, { method: 'POST', body: JSON.stringify(body) });

  /** A browser going through the whole flow; answers the callback's response and the service's cookies. */
  async function browse(): Promise<{ callback: Response; jar: CookieJar }> {
    const ours = new CookieJar();
    const theirs = new CookieJar();
    const start = await fetch(`${service.baseUrl}/v1/operator/oidc/start`, { redirect: 'manual' });
    expect(start.status).toBe(303);
    ours.take(start.headers);
    expect(start.headers.getSetCookie()[0]).toMatch(/^operator_oidc=.*Path=\/v1\/operator\/oidc; Max-Age=600; HttpOnly; SameSite=Lax/);
    let location = start.headers.get('location')!;
    const authorize = new URL(location);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorize.searchParams.get('nonce')).toBeTruthy();
    for (let hop = 0; hop < 10 && !location.startsWith(service.baseUrl); hop++) {
      const res = await fetch(new URL(location, issuer), { redirect: 'manual', headers: { cookie: theirs.header() } });
      theirs.take(res.headers);
      expect([302, 303]).toContain(res.status);
      location = new URL(res.headers.get('location')!, issuer).href;
    }
    expect(location.startsWith(`${service.baseUrl}/v1/operator/oidc/callback?`)).toBe(true);
    const back = await fetch(location, { redirect: 'manual', headers: { cookie: ours.header() } });
    ours.take(back.headers);
    return { callback: back, jar: ours };
  }

  it('signs an operator in with the role its groups claim maps to, and signs it out', async () => {
    await setProvider({ tamper: null, account: { sub: 'alice', email: 'alice@example.com', groups: ['payout-admins', 'payout-support'] } });
    const { callback: back, jar } = await browse();
    expect(back.status).toBe(200);
    expect(await back.text()).toContain('url=/console');
    expect(back.headers.getSetCookie().find((c) => c.startsWith('operator_session='))).toMatch(/HttpOnly; SameSite=Strict/);
    const cookie = `operator_session=${jar.get('operator_session')}`;
    const session = await service.call('GET', '/v1/operator/session', { headers: { cookie } });
    expect(session.status).toBe(200);
    expect(session.body.operator).toMatchObject({ email: 'alice@example.com', role: 'admin', signIn: 'oidc', status: 'active' });
    expect((await service.call('GET', '/v1/admin/audit-log?action=signIn&limit=1', { headers: { cookie } })).body.data[0])
      .toMatchObject({ actorId: session.body.operator.operatorId, after: { method: 'oidc' } });

    const out = await service.call('POST', '/v1/operator/sign-out', { headers: { cookie, 'x-csrf-token': session.body.csrfToken } });
    expect(out.status).toBe(204);
    expect((await service.call('GET', '/v1/operator/session', { headers: { cookie } })).status).toBe(401);

    // The provider's claims decide the role at each sign-in.
    await setProvider({ account: { sub: 'alice', email: 'alice@example.com', groups: ['payout-support'] } });
    const again = await browse();
    expect(again.callback.status).toBe(200);
    const demoted = await service.call('GET', '/v1/operator/session', { headers: { cookie: `operator_session=${again.jar.get('operator_session')}` } });
    expect(demoted.body.operator).toMatchObject({ operatorId: session.body.operator.operatorId, role: 'viewer' });
  });

  it('refuses an ID token issued to another audience', async () => {
    await setProvider({ tamper: 'audience', account: { sub: 'bob', email: 'bob@example.com', groups: ['payout-admins'] } });
    const { callback: back, jar } = await browse();
    expect(back.status).toBe(401);
    const body = await back.json() as { code: string; message: string };
    expect(body.code).toBe('unauthorized');
    expect(body.message).toMatch(/OAUTH_JWT_CLAIM_COMPARISON_FAILED.*\(claim aud\)/);
    expect(jar.get('operator_session')).toBeUndefined();
  });

  it('refuses an expired ID token', async () => {
    await setProvider({ tamper: 'expired', account: { sub: 'carol', email: 'carol@example.com', groups: ['payout-admins'] } });
    const { callback: back, jar } = await browse();
    expect(back.status).toBe(401);
    expect(((await back.json()) as { message: string }).message).toMatch(/OAUTH_JWT_TIMESTAMP_CHECK_FAILED.*\(claim exp\)/);
    expect(jar.get('operator_session')).toBeUndefined();
  });

  it('refuses an account whose claims map to no role, and a callback without its attempt cookie', async () => {
    await setProvider({ tamper: null, account: { sub: 'dave', email: 'dave@example.com', groups: ['marketing'] } });
    const { callback: back } = await browse();
    expect(back.status).toBe(403);
    expect(((await back.json()) as { code: string }).code).toBe('forbidden');
    const stray = await fetch(`${service.baseUrl}/v1/operator/oidc/callback?code=abc&state=def`);
    expect(stray.status).toBe(401);
  });
});
