import type { Request, RequestHandler, Response } from 'express';
import type { Principal } from '../../core/auth/api-key';
import { ACCESS_REFUSALS, type AccessNeed, type BearerAccess } from './bearer-access';
import { clientAddressOf, type ProxyTrust } from './client-address';
import { rateLimitHeaders, rateLimitedMessage } from './rate-limits';

/** How a transport writes a refusal: REST in shape A, GraphQL as a GraphQL error; the status goes with the code. */
export type SendRefusal = (res: Response, status: 401 | 403 | 429, code: 'unauthorized' | 'forbidden' | 'rate_limited', message: string) => void;

/** The principal an access gate authenticated for this request, or undefined when none ran or it refused. */
export function principalOf(res: Response): Principal | undefined {
  return res.locals.principal as Principal | undefined;
}

/**
 * Authenticates and rate-limits an HTTP request (REST or GraphQL) before its body is read
 * (docs/decisions.md § Authentication, tenants and keys; § Rate limits and abuse limits), so an
 * unauthenticated caller can hold no connection open with a slow body. Refusals: 401
 * `unauthorized`, 403 `forbidden`, 429 `rate_limited` with `Retry-After` (a spent key budget or a
 * throttled address), written by `send`; when the body has not fully arrived the connection closes
 * after the answer. Counted requests carry the RateLimit headers. The principal is left in
 * `res.locals.principal` (read it with `principalOf`).
 */
export function httpAccessGate(access: BearerAccess, trust: ProxyTrust, need: AccessNeed, send: SendRefusal): RequestHandler {
  const refuse = (req: Request, res: Response, status: 401 | 403 | 429, code: 'unauthorized' | 'forbidden' | 'rate_limited', message: string) => {
    if (!req.complete) res.set('Connection', 'close');
    send(res, status, code, message);
  };
  return async (req, res, next) => {
    const auth = await access.authenticateBearer({ header: req.get('authorization') }, clientAddressOf(req, trust), need);
    if (!auth.ok) {
      const retryAfterS = auth.details?.retryAfterS;
      if (typeof retryAfterS === 'number') res.set('Retry-After', String(retryAfterS));
      const { status, code } = ACCESS_REFUSALS[auth.code];
      return refuse(req, res, status, code, auth.message);
    }
    res.locals.principal = auth.value;
    const rate = await access.rateLimits.consume(auth.value);
    res.set(rateLimitHeaders(rate));
    if (!rate.allowed) return refuse(req, res, 429, 'rate_limited', rateLimitedMessage(rate));
    next();
  };
}
