import { createHash } from 'node:crypto';
import type { AuditEntry, AuditLog } from '../../src/core/operators/audit-log';
import type { Operator } from '../../src/core/operators/operator';
import type { OperatorSession, OperatorStore, PasswordHasher, SessionStore, Totp } from '../../src/core/operators/operator-ports';
import { createOperatorApplication } from '../../src/core/operators/operator-application';
import { SYSTEM_ACTOR } from '../../src/core/operators/audited-admin';
import { parseRoleMap, roleFromClaim } from '../../src/adapters/access/oidc-sign-in';
import { csvField } from '../../src/adapters/http/operator-admin.routes';
import { loggedUrl } from '../../src/adapters/http/request-log';

/** In-memory ports at the core's edge; the password "hash" is the password reversed, codes are "<step>". */
function world() {
  let now = new Date('2026-11-27T08:00:00.000Z');
  let counter = 0;
  const operators = new Map<string, Operator>();
  const sessions = new Map<string, OperatorSession>();
  const audit: AuditEntry[] = [];
  const store: OperatorStore = {
    insert: async (o) => ([...operators.values()].some((x) => x.email === o.email) ? false : (operators.set(o.id, o), true)),
    findById: async (id) => operators.get(id),
    findByEmail: async (email) => [...operators.values()].find((o) => o.email === email),
    findBySubject: async (issuer, subject) => [...operators.values()].find((o) => o.oidcIssuer === issuer && o.oidcSubject === subject),
    list: async () => [...operators.values()],
    update: async (id, change, at) => {
      const o = operators.get(id);
      if (!o) return undefined;
      const next = { ...o, role: change.role, status: change.status, email: change.email ?? o.email, updatedAt: at };
      operators.set(id, next);
      return next;
    },
    useTotpStep: async (id, step) => {
      const o = operators.get(id)!;
      if (o.totpLastStep !== null && o.totpLastStep >= step) return false;
      operators.set(id, { ...o, totpLastStep: step });
      return true;
    },
  };
  const sessionStore: SessionStore = {
    insert: async (s) => void sessions.set(s.idHash, s),
    find: async (h) => sessions.get(h),
    touch: async (h, at) => void sessions.set(h, { ...sessions.get(h)!, lastSeenAt: at }),
    revoke: async (h, at) => void sessions.set(h, { ...sessions.get(h)!, revokedAt: at }),
    revokeAll: async (id, at) => {
      let n = 0;
      for (const [h, s] of sessions) {
        if (s.operatorId === id && s.revokedAt === null) {
          sessions.set(h, { ...s, revokedAt: at });
          n++;
        }
      }
      return n;
    },
  };
  const passwords: PasswordHasher = { hash: async (p) => [...p].reverse().join(''), verify: async (h, p) => h === [...p].reverse().join('') };
  const step = () => Math.floor(now.getTime() / 30_000);
  const totp: Totp = { newSecret: () => 'SECRET', uri: (s, l) => `otpauth://totp/${l}?secret=${s}`, verify: async (_s, code) => (code === String(step()) ? step() : undefined) };
  const log: AuditLog = { append: async (e) => void audit.push(e), list: async () => [...audit].reverse(), stream: async function* () { yield audit; } };
  const app = createOperatorApplication({
    operators: store, sessions: sessionStore, passwords, totp, audit: log, policy: { idleS: 600, absoluteS: 3600 },
    tokens: { next: () => `token-${++counter}`, hash: (t) => createHash('sha256').update(t).digest('hex') },
    clock: { now: () => now }, ids: { next: (p) => `${p}_${String(++counter).padStart(26, '0')}`, uuid: () => 'u' },
  });
  return { app, audit, operators, advance: (s: number) => (now = new Date(now.getTime() + s * 1000)), code: () => String(step()) };
}

async function signedIn(w: ReturnType<typeof world>) {
  const made = await w.app.createOperator({ email: 'Ama@Example.com', role: 'operator', password: 'a long enough password' }, SYSTEM_ACTOR, null);
  if (!made.ok) throw new Error(made.message);
  const session = await w.app.signInWithPassword({ email: 'ama@example.com', password: 'a long enough password', totpCode: w.code() }, 'req-1');
  if (!session.ok) throw new Error(session.message);
  return { operatorId: made.value.operatorId, ...session.value };
}

describe('operator sessions (docs/decisions.md § Operators: sign-in, sessions, roles, audit log)', () => {
  it('ends a session left idle for the idle timeout, and moves the idle clock on use', async () => {
    const w = world();
    const s = await signedIn(w);
    w.advance(599);
    expect((await w.app.resolveSession(s.sessionToken)).ok).toBe(true);
    w.advance(599); // 1198 s after sign-in, 599 s after the last use
    expect((await w.app.resolveSession(s.sessionToken)).ok).toBe(true);
    w.advance(600);
    const ended = await w.app.resolveSession(s.sessionToken);
    expect(ended).toMatchObject({ ok: false, code: 'unauthorized' });
  });

  it('ends a session at its absolute end however it is used', async () => {
    const w = world();
    const s = await signedIn(w);
    expect(s.expiresAt.toISOString()).toBe('2026-11-27T09:00:00.000Z');
    for (let i = 0; i < 6; i++) {
      w.advance(590);
      expect((await w.app.resolveSession(s.sessionToken)).ok).toBe(true);
    }
    w.advance(60); // 3600 s after sign-in
    expect((await w.app.resolveSession(s.sessionToken)).ok).toBe(false);
  });

  it('binds the CSRF token to its session and derives the same one again', async () => {
    const w = world();
    const s = await signedIn(w);
    const live = await w.app.resolveSession(s.sessionToken);
    if (!live.ok) throw new Error('no session');
    expect(w.app.csrfTokenOf(s.sessionToken)).toBe(s.csrfToken);
    expect(w.app.csrfMatches(live.value, s.csrfToken)).toBe(true);
    expect(w.app.csrfMatches(live.value, undefined)).toBe(false);
    expect(w.app.csrfMatches(live.value, '')).toBe(false);
    expect(w.app.csrfMatches(live.value, w.app.csrfTokenOf('another session'))).toBe(false);
  });

  it('refuses a new code not later than the last one accepted, and a disabled operator', async () => {
    const w = world();
    const s = await signedIn(w);
    const again = { email: 'ama@example.com', password: 'a long enough password', totpCode: w.code() };
    expect(await w.app.signInWithPassword(again, null)).toMatchObject({ ok: false, code: 'unauthorized' });
    w.advance(30);
    const admin = await w.app.createOperator({ email: 'root@example.com', role: 'admin', password: 'another long password' }, SYSTEM_ACTOR, null);
    expect(admin.ok).toBe(true);
    expect((await w.app.updateOperator(s.operatorId, { status: 'disabled' }, SYSTEM_ACTOR, null)).ok).toBe(true);
    expect(await w.app.signInWithPassword({ ...again, totpCode: w.code() }, null)).toMatchObject({ ok: false, code: 'unauthorized' });
    expect((await w.app.resolveSession(s.sessionToken)).ok).toBe(false);
  });

  it('keeps one active admin, refuses short passwords and bad e-mails, and records before and after', async () => {
    const w = world();
    const made = await w.app.createOperator({ email: 'root@example.com', role: 'admin', password: 'a long enough password' }, SYSTEM_ACTOR, 'r1');
    if (!made.ok) throw new Error('no admin');
    expect(await w.app.updateOperator(made.value.operatorId, { role: 'viewer' }, SYSTEM_ACTOR, null)).toMatchObject({ ok: false, code: 'invalid_state' });
    expect(await w.app.updateOperator(made.value.operatorId, { status: 'disabled' }, SYSTEM_ACTOR, null)).toMatchObject({ ok: false, code: 'invalid_state' });
    expect(await w.app.createOperator({ email: 'x@example.com', role: 'viewer', password: 'short' }, SYSTEM_ACTOR, null)).toMatchObject({ ok: false, code: 'validation_error' });
    expect(await w.app.createOperator({ email: 'not-an-address', role: 'viewer', password: 'a long enough password' }, SYSTEM_ACTOR, null)).toMatchObject({ ok: false, code: 'validation_error' });
    expect(await w.app.createOperator({ email: 'ROOT@example.com', role: 'viewer', password: 'a long enough password' }, SYSTEM_ACTOR, null)).toMatchObject({ ok: false, code: 'duplicate_operator' });
    const second = await w.app.createOperator({ email: 'two@example.com', role: 'admin', password: 'a long enough password' }, SYSTEM_ACTOR, null);
    expect(second.ok).toBe(true);
    expect(await w.app.updateOperator(made.value.operatorId, { role: 'viewer' }, SYSTEM_ACTOR, 'r2')).toMatchObject({ ok: true, value: { role: 'viewer' } });
    const row = w.audit.find((e) => e.action === 'updateOperator')!;
    expect(row).toMatchObject({ before: { role: 'admin' }, after: { role: 'viewer' }, requestId: 'r2', targetId: made.value.operatorId });
    expect(JSON.stringify(w.audit)).not.toContain('SECRET');
  });

  it('creates an identity-provider operator at first sign-in, follows its claims, and refuses no role', async () => {
    const w = world();
    const identity = { issuer: 'https://idp.example.com', subject: 'u-1', email: 'Kofi@Example.com', role: 'operator' as const };
    const first = await w.app.signInWithIdentity(identity, null);
    expect(first).toMatchObject({ ok: true, value: { operator: { email: 'kofi@example.com', role: 'operator', signIn: 'oidc' } } });
    const second = await w.app.signInWithIdentity({ ...identity, role: 'viewer' }, null);
    expect(second).toMatchObject({ ok: true, value: { operator: { role: 'viewer' } } });
    expect(await w.app.signInWithIdentity({ ...identity, role: null }, null)).toMatchObject({ ok: false, code: 'forbidden' });
    await w.app.createOperator({ email: 'local@example.com', role: 'viewer', password: 'a long enough password' }, SYSTEM_ACTOR, null);
    expect(await w.app.signInWithIdentity({ ...identity, subject: 'u-2', email: 'local@example.com' }, null)).toMatchObject({ ok: false, code: 'forbidden' });
  });
});

describe('audit pages', () => {
  it('lets a page reader ask one row more than the largest page, to know a next page exists', async () => {
    const asked: number[] = [];
    const app = createOperatorApplication({
      ...({} as Parameters<typeof createOperatorApplication>[0]),
      audit: { append: async () => undefined, list: async (_f, _c, limit) => {
        asked.push(limit);
        return [];
      }, stream: async function* () { /* none */ } },
      policy: { idleS: 1, absoluteS: 1 },
    });
    for (const limit of [0, 51, 201, 500]) await app.listAuditLog({}, undefined, limit);
    expect(asked).toEqual([1, 51, 201, 201]);
  });
});

describe('identity-provider role mapping', () => {
  const map = parseRoleMap('payout-admins=admin, payout-ops=operator,support=viewer');
  it('parses the map and refuses a pair without a known role', () => {
    expect(map).toEqual({ 'payout-admins': 'admin', 'payout-ops': 'operator', support: 'viewer' });
    expect(() => parseRoleMap('payout-admins=root')).toThrow(/OIDC_ROLE_MAP: "payout-admins=root"/);
    expect(() => parseRoleMap('=admin')).toThrow(/OIDC_ROLE_MAP/);
  });
  it('gives the strongest mapped role of a list or a space-separated string, else null', () => {
    expect(roleFromClaim(['support', 'payout-admins', 'payout-ops'], map)).toBe('admin');
    expect(roleFromClaim(['support', 'payout-ops'], map)).toBe('operator');
    expect(roleFromClaim('support payout-ops', map)).toBe('operator');
    expect(roleFromClaim(['marketing'], map)).toBeNull();
    expect(roleFromClaim(undefined, map)).toBeNull();
    expect(roleFromClaim([42, { admin: true }], map)).toBeNull();
  });
});

describe('audit CSV fields', () => {
  it('quotes separators and quotes, and neutralises spreadsheet formulas', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField(null)).toBe('');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('line\nbreak')).toBe('"line\nbreak"');
    expect(csvField('=HYPERLINK("http://evil")')).toBe('"\'=HYPERLINK(""http://evil"")"');
    for (const lead of ['+', '-', '@']) expect(csvField(`${lead}1`)).toBe(`'${lead}1`);
    expect(csvField({ a: 1 })).toBe('"{""a"":1}"');
  });
});

describe('the OpenID Connect callback in the request log', () => {
  it('redacts the authorization code and state', () => {
    expect(loggedUrl('/v1/operator/oidc/callback?code=abc123&state=xyz&iss=https%3A%2F%2Fidp')).toBe('/v1/operator/oidc/callback?code=[redacted]&state=[redacted]&iss=https%3A%2F%2Fidp');
  });
});
