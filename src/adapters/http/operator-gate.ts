import type { Request, RequestHandler, Response } from 'express';
import type { AuthFailures } from '../access/auth-failures';
import type { ProxyTrust } from '../access/client-address';
import type { RateLimits } from '../access/rate-limits';
import { rateLimitHeaders, rateLimitedMessage } from '../access/rate-limits';
import type { AuditActor } from '../../core/operators/audit-log';
import { roleAllows, type OperatorRole } from '../../core/operators/operator';
import type { OperatorApplication } from '../../core/operators/operator-application';
import type { QueueCounts } from '../../core/operators/operator-queues';
import type { LiveSession } from '../../core/operators/operator-sessions';
import { sendShapeA } from './http-errors';

/** What operator sessions need on REST (docs/decisions.md § Operators: sign-in, sessions, roles, audit log). */
export interface OperatorHttp {
  readonly operators: OperatorApplication;
  /** The console's queue counts. */
  readonly queues: () => Promise<QueueCounts>;
  /** Failed sign-ins count against the address like failed key authentications. */
  readonly failures: AuthFailures;
  readonly rateLimits: RateLimits;
  /** Secure cookies (production): the session cookie is then `__Host-operator_session`. */
  readonly secureCookies: boolean;
  /** Which proxies' X-Forwarded-For names the client (the sign-in throttle counts per address). */
  readonly trustProxy: ProxyTrust;
}

/** The header a session's writes carry their CSRF token in. */
export const CSRF_HEADER = 'X-CSRF-Token';

/** The session cookie's name: the `__Host-` prefix (Secure, Path=/, no Domain) whenever cookies are Secure. */
export const sessionCookieName = (secure: boolean): string => (secure ? '__Host-operator_session' : 'operator_session');

/** The value of cookie `name` in the request, or undefined. */
export function cookieOf(req: Request, name: string): string | undefined {
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** A Set-Cookie value: HttpOnly always, Secure in production, SameSite as given. */
export function cookieHeader(name: string, value: string, options: { secure: boolean; maxAgeS: number; path: string; sameSite: 'Strict' | 'Lax' }): string {
  return [`${name}=${encodeURIComponent(value)}`, `Path=${options.path}`, `Max-Age=${options.maxAgeS}`, 'HttpOnly', `SameSite=${options.sameSite}`,
    ...(options.secure ? ['Secure'] : [])].join('; ');
}

/** The live session a session gate accepted for this request. */
export function liveSessionOf(res: Response): LiveSession | undefined {
  return res.locals.operatorSession as LiveSession | undefined;
}

/** Who is acting on this request, for the audit log: the session's operator, or the admin key (acting as admin). */
export function auditActorOf(res: Response): AuditActor | undefined {
  const actor = res.locals.auditActor as AuditActor | undefined;
  if (actor) return actor;
  const principal = res.locals.principal as { keyId: string; scope: string } | undefined;
  return principal?.scope === 'admin' ? { kind: 'admin_key', id: principal.keyId, role: 'admin' } : undefined;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Authenticates an operator session from its cookie (docs/decisions.md § Operators: sign-in,
 * sessions, roles, audit log), then checks on the server: the operator's role against `needed`
 * (403 `forbidden`), and on every write the CSRF token in X-CSRF-Token against the session's
 * (403 `csrf_failed`). 401 `unauthorized` when there is no live session. Counts the request
 * against the operator's request budget (429 `rate_limited`).
 */
export function sessionGate(http: OperatorHttp, needed: OperatorRole): RequestHandler {
  const cookie = sessionCookieName(http.secureCookies);
  return async (req, res, next) => {
    const refuse = (code: 'unauthorized' | 'forbidden' | 'csrf_failed' | 'rate_limited', message: string) => {
      if (!req.complete) res.set('Connection', 'close');
      sendShapeA(res, code, message);
    };
    const token = cookieOf(req, cookie);
    const live = token ? await http.operators.resolveSession(token) : undefined;
    if (!live?.ok) return refuse('unauthorized', live?.message ?? 'Sign in first: no operator session cookie, and no Authorization header');
    const { operator } = live.value;
    if (!roleAllows(operator.role, needed)) return refuse('forbidden', `This operation needs the ${needed} role; you have ${operator.role}`);
    if (!SAFE_METHODS.has(req.method) && !http.operators.csrfMatches(live.value, req.get(CSRF_HEADER))) {
      return refuse('csrf_failed', `Missing or wrong ${CSRF_HEADER} header: send the csrfToken your sign-in (or GET /v1/operator/session) returned`);
    }
    const principal = { keyId: operator.id, tenantId: null, scope: 'admin' as const };
    const rate = await http.rateLimits.consume(principal);
    res.set(rateLimitHeaders(rate));
    if (!rate.allowed) return refuse('rate_limited', rateLimitedMessage(rate));
    res.locals.principal = principal;
    res.locals.operatorSession = live.value;
    res.locals.auditActor = { kind: 'session', id: operator.id, role: operator.role } satisfies AuditActor;
    next();
  };
}
