import type { Clock, IdGenerator } from '../shared/clock';
import { err, ok, type Result } from '../shared/result';
import type { AuditActor, AuditLog } from './audit-log';
import { normalEmail, toOperatorView, type Operator, type OperatorRole, type OperatorView } from './operator';
import type { OperatorSession, OperatorStore, PasswordHasher, SessionStore, TokenSource, Totp } from './operator-ports';

/** Session lifetimes in seconds (OPERATOR_SESSION_IDLE_S, OPERATOR_SESSION_ABSOLUTE_S). */
export interface SessionPolicy {
  readonly idleS: number;
  readonly absoluteS: number;
}

/** What sign-in, session checks and sign-out need. */
export interface SessionDeps {
  readonly operators: OperatorStore;
  readonly sessions: SessionStore;
  readonly passwords: PasswordHasher;
  readonly totp: Totp;
  readonly tokens: TokenSource;
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly policy: SessionPolicy;
}

/** A new session: the two tokens are in this answer only (the store keeps their hashes). */
export interface IssuedSession {
  /** Goes in the HttpOnly session cookie. */
  readonly sessionToken: string;
  /** Sent back in the X-CSRF-Token header of every write. */
  readonly csrfToken: string;
  readonly operator: OperatorView;
  readonly expiresAt: Date;
}

/** A session that passed every check, with its operator as stored now (role and status are never cached). */
export interface LiveSession {
  readonly session: OperatorSession;
  readonly operator: Operator;
}

/** Compared with when the e-mail is unknown, so an unknown address costs the same argon2 work as a wrong password. */
const NO_OPERATOR_HASH = '$argon2id$v=19$m=19456,t=2,p=1$WPA9fsTMJAH6J1jIEiiLdQ$Gi8ajPE8dDxuom7OQ84FDMhBJ+hf3j3D0kAVgeGAfBo';
const DENIED = 'Wrong e-mail, password or one-time code, or the account is disabled';
const DISABLED = 'This operator account is disabled here; ask an admin';
/** Sessions are touched at most this often (ms), so reads do not all write. */
const TOUCH_EVERY_MS = 60_000;

const actorOf = (operator: Operator): AuditActor => ({ kind: 'session', id: operator.id, role: operator.role });

/**
 * Signs a local operator in with e-mail, password and TOTP code (docs/decisions.md § Operators:
 * sign-in, sessions, roles, audit log). One answer for every refusal (`unauthorized`), so the
 * answer tells nothing about which part was wrong; an unknown e-mail costs the same hash work. A
 * code is accepted once (its time step is stored). Writes a `signIn` audit row.
 */
export async function signInWithPassword(
  deps: SessionDeps, input: { email: string; password: string; totpCode: string }, requestId: string | null,
): Promise<Result<IssuedSession, 'unauthorized'>> {
  const email = normalEmail(input.email);
  const operator = email ? await deps.operators.findByEmail(email) : undefined;
  const passwordOk = await deps.passwords.verify(operator?.passwordHash ?? NO_OPERATOR_HASH, input.password);
  if (!operator || !operator.passwordHash || !operator.totpSecret || !passwordOk || operator.status !== 'active') return err('unauthorized', DENIED);
  const step = await deps.totp.verify(operator.totpSecret, input.totpCode.trim(), deps.clock.now());
  if (step === undefined || !(await deps.operators.useTotpStep(operator.id, step))) return err('unauthorized', DENIED);
  return ok(await openSession(deps, operator, 'password', requestId));
}

/** The identity an OpenID Connect sign-in proved, with the role its claims map to (null: none). */
export interface ProvenIdentity {
  readonly issuer: string;
  readonly subject: string;
  readonly email: string | null;
  readonly role: OperatorRole | null;
}

/**
 * Signs in an operator the identity provider vouched for. The provider's claims decide the role at
 * every sign-in (the account is created at the first one); a disabled account stays disabled.
 * Errors: `forbidden` when the claims map to no role, the account is disabled, or its e-mail belongs
 * to a local account (never linked silently). Writes `signIn` (and `createOperator` or
 * `updateOperator` when the claims changed the account) audit rows.
 */
export async function signInWithIdentity(deps: SessionDeps, identity: ProvenIdentity, requestId: string | null): Promise<Result<IssuedSession, 'forbidden'>> {
  if (identity.role === null) return err('forbidden', 'Your identity provider account has no role for this service');
  const now = deps.clock.now();
  let operator = await deps.operators.findBySubject(identity.issuer, identity.subject);
  const email = normalEmail(identity.email ?? '') ?? `${identity.subject.toLowerCase().replace(/[^a-z0-9._-]/g, '_').slice(0, 100)}@oidc.invalid`;
  if (!operator) {
    const created: Operator = {
      id: deps.ids.next('opr'), email, role: identity.role, status: 'active', passwordHash: null, totpSecret: null, totpLastStep: null,
      oidcIssuer: identity.issuer, oidcSubject: identity.subject, createdAt: now, updatedAt: now,
    };
    if (!(await deps.operators.insert(created))) return err('forbidden', 'An operator account with this e-mail already exists; ask an admin');
    await deps.audit.append({
      id: deps.ids.next('aud'), at: now, actor: actorOf(created), action: 'createOperator', targetType: 'operator', targetId: created.id,
      before: null, after: toOperatorView(created), reason: 'first sign-in through the identity provider', requestId,
    });
    operator = created;
  } else if (operator.role !== identity.role || operator.email !== email) {
    if (operator.status !== 'active') return err('forbidden', DISABLED);
    const before = toOperatorView(operator);
    operator = (await deps.operators.update(operator.id, { role: identity.role, status: operator.status, email }, now)) ?? operator;
    await deps.audit.append({
      id: deps.ids.next('aud'), at: now, actor: actorOf(operator), action: 'updateOperator', targetType: 'operator', targetId: operator.id,
      before, after: toOperatorView(operator), reason: "the identity provider's claims changed", requestId,
    });
  }
  if (operator.status !== 'active') return err('forbidden', DISABLED);
  return ok(await openSession(deps, operator, 'oidc', requestId));
}

async function openSession(deps: SessionDeps, operator: Operator, method: OperatorSession['method'], requestId: string | null): Promise<IssuedSession> {
  const now = deps.clock.now();
  const sessionToken = deps.tokens.next();
  const csrfToken = csrfTokenOf(deps, sessionToken);
  const expiresAt = new Date(now.getTime() + deps.policy.absoluteS * 1000);
  await deps.sessions.insert({
    idHash: deps.tokens.hash(sessionToken), operatorId: operator.id, csrfHash: deps.tokens.hash(csrfToken), method,
    createdAt: now, lastSeenAt: now, expiresAt, revokedAt: null,
  });
  await deps.audit.append({
    id: deps.ids.next('aud'), at: now, actor: actorOf(operator), action: 'signIn', targetType: 'operator', targetId: operator.id,
    before: null, after: { method }, reason: null, requestId,
  });
  return { sessionToken, csrfToken, operator: toOperatorView(operator), expiresAt };
}

/**
 * The live session of `sessionToken`: not revoked, used within the idle timeout, before its
 * absolute end, of an active operator. Moves its idle clock. Errors: `unauthorized` (one message).
 */
export async function resolveSession(deps: Pick<SessionDeps, 'operators' | 'sessions' | 'tokens' | 'clock' | 'policy'>, sessionToken: string): Promise<Result<LiveSession, 'unauthorized'>> {
  const denied = err('unauthorized', 'Not signed in, or the session has ended; sign in again');
  const session = await deps.sessions.find(deps.tokens.hash(sessionToken));
  const now = deps.clock.now();
  if (!session || session.revokedAt !== null || session.expiresAt <= now) return denied;
  if (now.getTime() - session.lastSeenAt.getTime() >= deps.policy.idleS * 1000) return denied;
  const operator = await deps.operators.findById(session.operatorId);
  if (!operator || operator.status !== 'active') return denied;
  if (now.getTime() - session.lastSeenAt.getTime() >= TOUCH_EVERY_MS) await deps.sessions.touch(session.idHash, now);
  return ok({ session, operator });
}

/** True when `presented` is the session's CSRF token (docs/decisions.md § Operators: CSRF). Pure but for the hash. */
export function csrfMatches(deps: Pick<SessionDeps, 'tokens'>, live: LiveSession, presented: string | undefined): boolean {
  return presented !== undefined && presented.length > 0 && deps.tokens.hash(presented) === live.session.csrfHash;
}

/**
 * The session's CSRF token: a hash of its (secret, HttpOnly) session token, so a page that lost it
 * can ask again and get the same one, and another site, which cannot read the cookie, cannot make
 * it (docs/decisions.md § Operators: CSRF).
 */
export function csrfTokenOf(deps: Pick<SessionDeps, 'tokens'>, sessionToken: string): string {
  return deps.tokens.hash(`csrf\0${sessionToken}`);
}

/** Ends one session (sign out); writes a `signOut` audit row. */
export async function signOut(deps: SessionDeps, live: LiveSession, requestId: string | null): Promise<void> {
  const now = deps.clock.now();
  await deps.sessions.revoke(live.session.idHash, now);
  await deps.audit.append({
    id: deps.ids.next('aud'), at: now, actor: actorOf(live.operator), action: 'signOut', targetType: 'operator', targetId: live.operator.id,
    before: null, after: null, reason: null, requestId,
  });
}

/** Ends every session of `operatorId` ("sign out everywhere", or an admin's decision); writes a `signOutEverywhere` audit row. */
export async function signOutEverywhere(deps: SessionDeps, operatorId: string, actor: AuditActor, requestId: string | null): Promise<number> {
  const now = deps.clock.now();
  const revoked = await deps.sessions.revokeAll(operatorId, now);
  await deps.audit.append({
    id: deps.ids.next('aud'), at: now, actor, action: 'signOutEverywhere', targetType: 'operator', targetId: operatorId,
    before: null, after: { sessionsEnded: revoked }, reason: null, requestId,
  });
  return revoked;
}
