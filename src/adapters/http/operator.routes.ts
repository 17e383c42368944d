import type { Response } from 'express';
import { z } from 'zod';
import { OPERATOR_ROLES, OPERATOR_STATUSES, toOperatorView } from '../../core/operators/operator';
import type { IssuedSession } from '../../core/operators/operator-sessions';
import { clientAddressOf } from '../access/client-address';
import { AUTH_ERRORS, ErrorA } from './common.schema';
import { responseRequestId, sendShapeA } from './http-errors';
import { CSRF_HEADER, auditActorOf, cookieHeader, cookieOf, liveSessionOf, sessionCookieName, type OperatorHttp } from './operator-gate';
import { defineRoute, type RouteSpec } from './route';

/** What the API shows of an operator (never a password hash or TOTP secret). */
export const OperatorViewSchema = z.object({
  operatorId: z.string().meta({ description: 'Operator id (opr_ + ULID)', example: 'opr_01JD4Y9R3T6V8X0Z2B4D6F8H0K' }),
  email: z.string().meta({ description: 'Lower-case e-mail address', example: 'ama@example.com' }),
  role: z.enum(OPERATOR_ROLES).meta({ description: 'viewer reads; operator also works the queues (refunds, screening reviews); admin also manages tenants, keys, pricing and operators' }),
  status: z.enum(OPERATOR_STATUSES).meta({ description: 'disabled operators cannot sign in and their sessions have ended' }),
  signIn: z.enum(['local', 'oidc']).meta({ description: 'local: password and TOTP; oidc: the identity provider' }),
  createdAt: z.iso.datetime().meta({ description: 'When the account was created', example: '2026-11-27T09:41:07.512Z' }),
  updatedAt: z.iso.datetime().meta({ description: 'Last change of role or status', example: '2026-11-27T09:41:07.512Z' }),
}).meta({ id: 'Operator' });

const SessionView = z.object({
  operator: OperatorViewSchema,
  csrfToken: z.string().meta({ description: `Send it in the ${CSRF_HEADER} header of every write made with this session`, example: '3f7c0a9e5d1b4c2a8e6f0d3b7a9c1e5f2d4b6a8c0e1f3a5b7c9d2e4f6a8b0c1d' }),
  expiresAt: z.iso.datetime().meta({ description: "The session's absolute end (an idle session ends sooner)", example: '2026-11-27T21:41:07.512Z' }),
}).meta({ id: 'OperatorSession' });

/**
 * Sets the session cookie: HttpOnly, SameSite=Strict (a session is never sent by a request another
 * site starts), Secure and `__Host-` prefixed in production, for the session's absolute lifetime.
 */
export function setSessionCookie(res: Response, http: OperatorHttp, issued: IssuedSession): void {
  res.append('Set-Cookie', cookieHeader(sessionCookieName(http.secureCookies), issued.sessionToken, {
    secure: http.secureCookies, maxAgeS: http.operators.policy.absoluteS, path: '/', sameSite: 'Strict',
  }));
}

const clearSessionCookie = (res: Response, http: OperatorHttp) => res.append('Set-Cookie', cookieHeader(sessionCookieName(http.secureCookies), '', {
  secure: http.secureCookies, maxAgeS: 0, path: '/', sameSite: 'Strict',
}));

/**
 * The Operators tag's session routes (docs/decisions.md § Operators: sign-in, sessions, roles,
 * audit log): local sign-in, the current session, sign out, sign out everywhere. No API key.
 */
export function operatorRoutes(http: OperatorHttp): RouteSpec<any, any, any>[] {
  const tags = ['Operators'];
  const SESSION_ERRORS = { '401': { description: 'No live session (unauthorized)', schema: ErrorA }, '403': { description: `csrf_failed: missing or wrong ${CSRF_HEADER}`, schema: ErrorA } } as const;
  return [
    defineRoute<{ email: string; password: string; totpCode: string }>({
      tags, auth: 'none', method: 'post', path: '/v1/operator/sign-in', operationId: 'operatorSignIn',
      summary: 'Sign in a local operator with e-mail, password and TOTP code; sets the session cookie',
      description: 'For local operator accounts (created with `npm run cli -- operators:create`). Answers the CSRF token that every write of the session must carry in '
        + `${CSRF_HEADER}, and sets the HttpOnly session cookie. One refusal for any wrong part (401 unauthorized); failed sign-ins count against the address like failed API keys (429 rate_limited).`,
      body: z.strictObject({
        email: z.string().min(1).max(254).meta({ description: 'The operator e-mail address', example: 'ama@example.com' }),
        password: z.string().min(1).max(1024).meta({ description: 'The password', example: 'correct horse battery staple' }),
        totpCode: z.string().min(1).max(10).meta({ description: 'The 6-digit code of the authenticator app; each code is accepted once', example: '492039' }),
      }),
      responses: {
        '200': { description: 'Signed in; Set-Cookie carries the session', schema: SessionView },
        '400': AUTH_ERRORS['400'], '401': { description: 'Wrong e-mail, password or code, or a disabled account (unauthorized)', schema: ErrorA }, '429': AUTH_ERRORS['429'],
      },
      handler: async (req, res) => {
        const address = clientAddressOf(req.raw, http.trustProxy);
        const retryAfterS = await http.failures.retryAfterS(address);
        if (retryAfterS !== undefined) {
          res.set('Retry-After', String(retryAfterS));
          return sendShapeA(res, 'rate_limited', `Too many failed sign-ins from this address; retry after ${retryAfterS} s`);
        }
        const result = await http.operators.signInWithPassword(req.body, responseRequestId(res) || null);
        if (!result.ok) {
          await http.failures.record(address);
          return sendShapeA(res, 'unauthorized', result.message);
        }
        setSessionCookie(res, http, result.value);
        res.json({ operator: result.value.operator, csrfToken: result.value.csrfToken, expiresAt: result.value.expiresAt.toISOString() });
      },
    }),
    defineRoute({
      tags, auth: 'operator', method: 'get', path: '/v1/operator/session', operationId: 'operatorSession',
      summary: 'The signed-in operator and a CSRF token for this session',
      description: `Who the session cookie belongs to, and the session's CSRF token (the same one sign-in answered), for a page that reloaded and lost it.`,
      responses: { '200': { description: 'The session', schema: SessionView }, '401': SESSION_ERRORS['401'] },
      handler: async (req, res) => {
        const live = liveSessionOf(res)!;
        const csrfToken = http.operators.csrfTokenOf(cookieOf(req.raw, sessionCookieName(http.secureCookies))!);
        res.json({ operator: toOperatorView(live.operator), csrfToken, expiresAt: live.session.expiresAt.toISOString() });
      },
    }),
    defineRoute({
      tags, auth: 'operator', method: 'post', path: '/v1/operator/sign-out', operationId: 'operatorSignOut',
      summary: 'End this session', description: 'Ends the session of the cookie and clears the cookie.',
      responses: { '204': { description: 'Signed out' }, ...SESSION_ERRORS },
      handler: async (_req, res) => {
        await http.operators.signOut(liveSessionOf(res)!, responseRequestId(res) || null);
        clearSessionCookie(res, http);
        res.status(204).end();
      },
    }),
    defineRoute({
      tags, auth: 'operator', method: 'post', path: '/v1/operator/sign-out-everywhere', operationId: 'operatorSignOutEverywhere',
      summary: 'End every session of the signed-in operator, on every device',
      description: 'Revokes all sessions of this operator at once (this one included) and clears the cookie.',
      responses: { '200': { description: 'Sessions ended', schema: z.object({ sessionsEnded: z.number().int().meta({ description: 'How many sessions were live', example: 2 }) }) }, ...SESSION_ERRORS },
      handler: async (_req, res) => {
        const live = liveSessionOf(res)!;
        const sessionsEnded = await http.operators.signOutEverywhere(live.operator.id, auditActorOf(res)!, responseRequestId(res) || null);
        clearSessionCookie(res, http);
        res.json({ sessionsEnded });
      },
    }),
  ];
}
