import { Router } from 'express';
import type { OidcSignIn } from '../access/oidc-sign-in';
import { ATTEMPT_TTL_S } from '../access/oidc-sign-in';
import { responseRequestId, sendShapeA } from './http-errors';
import { cookieHeader, cookieOf, type OperatorHttp } from './operator-gate';
import { setSessionCookie } from './operator.routes';

const ATTEMPT_PATH = '/v1/operator/oidc';
/** Where a signed-in operator lands (the operator console). */
export const CONSOLE_PATH = '/console';

const attemptCookieName = (secure: boolean) => (secure ? '__Secure-operator_oidc' : 'operator_oidc');

/**
 * The OpenID Connect redirects (docs/decisions.md § Operators: sign-in, sessions, roles, audit log),
 * browser-only, outside OpenAPI: GET /v1/operator/oidc/start sends the browser to the identity
 * provider with a short-lived attempt cookie; GET /v1/operator/oidc/callback completes the sign-in,
 * sets the session cookie and answers a page that moves on to the console. The attempt cookie is
 * SameSite=Lax because the provider's redirect back is a cross-site navigation that a Strict
 * cookie would not ride; the session cookie stays Strict, so the landing page navigates on itself
 * (a same-site navigation, which carries it).
 */
export function oidcRouter(http: OperatorHttp, oidc: OidcSignIn): Router {
  const router = Router();
  const attemptCookie = attemptCookieName(http.secureCookies);
  router.get(`${ATTEMPT_PATH}/start`, async (_req, res) => {
    const started = await oidc.start().catch(() => undefined);
    if (!started) return sendShapeA(res, 'service_unavailable', 'The identity provider cannot be reached; try again, or sign in with a local account');
    const { url, attemptToken } = started;
    res.append('Set-Cookie', cookieHeader(attemptCookie, attemptToken, { secure: http.secureCookies, maxAgeS: ATTEMPT_TTL_S, path: ATTEMPT_PATH, sameSite: 'Lax' }));
    res.redirect(303, url);
  });
  router.get(`${ATTEMPT_PATH}/callback`, async (req, res) => {
    res.append('Set-Cookie', cookieHeader(attemptCookie, '', { secure: http.secureCookies, maxAgeS: 0, path: ATTEMPT_PATH, sameSite: 'Lax' }));
    // Our registered URI with the provider's query: right behind a proxy that serves us under another path or host.
    const callbackUrl = new URL(oidc.redirectUri);
    callbackUrl.search = new URL(req.originalUrl, 'http://callback.invalid').search;
    const proven = await oidc.finish(callbackUrl, cookieOf(req, attemptCookie));
    if (!proven.ok) return sendShapeA(res, 'unauthorized', proven.message);
    const session = await http.operators.signInWithIdentity(proven.value, responseRequestId(res) || null);
    if (!session.ok) return sendShapeA(res, 'forbidden', session.message);
    setSessionCookie(res, http, session.value);
    res.status(200).type('html').send(`<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${CONSOLE_PATH}">`
      + `<title>Signed in</title></head><body><p>Signed in. <a href="${CONSOLE_PATH}">Continue to the console</a>.</p></body></html>`);
  });
  return router;
}
