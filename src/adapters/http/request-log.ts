import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { principalOf } from '../access/http-gate';

/** An incoming X-Request-Id is kept when it is 1 to 128 visible ASCII characters; otherwise one is made. */
const SANE_REQUEST_ID = /^[\x21-\x7e]{1,128}$/;
/**
 * Query parameters whose values are never logged (none of the API's carry secrets; a client may still send them), and
 * the OpenID Connect callback's `code` and `state` (docs/decisions.md § Operators: sign-in, sessions, roles, audit log).
 */
const SECRET_PARAM = /token|key|secret|pass|signature|auth|account|number|^code$|^state$/i;
/** Paths logged at debug level: orchestrators poll them every few seconds. */
const PROBES: ReadonlySet<string> = new Set(['/livez', '/readyz']);
/** Longest URL written to a log line, in characters. */
const MAX_LOGGED_URL = 512;

/** The request id of a caller's `X-Request-Id` when it is sane, else a new UUID. */
export function requestIdOf(incoming: string | undefined): string {
  return incoming !== undefined && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/**
 * The first middleware (docs/decisions.md § Running it): gives every request an id, returned as
 * `Request-Id` on every response (successes, errors, 404s), and writes one line per request when
 * the response finishes: request id, method, `url` (the original URL, mounted routers included, with
 * secret-looking query values masked), status, duration in ms, and the tenant and key ids when the
 * caller authenticated (never the key or the Authorization header). `/livez` and `/readyz` log at
 * debug level.
 */
export function requestLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    const requestId = requestIdOf(req.get('x-request-id'));
    // Read now: a mounted router rewrites req.path while it handles the request.
    const probe = PROBES.has(req.path);
    res.locals.requestId = requestId;
    res.set('Request-Id', requestId);
    res.on('finish', () => {
      const ms = Math.round(Number(process.hrtime.bigint() - started) / 1e5) / 10;
      const principal = principalOf(res);
      const line = {
        requestId, method: req.method, url: loggedUrl(req.originalUrl), status: res.statusCode, ms,
        ...(principal ? { tenantId: principal.tenantId, keyId: principal.keyId } : {}),
      };
      if (probe) logger.debug(line, 'request');
      else logger.info(line, 'request');
    });
    next();
  };
}

/**
 * Paths whose segment after the prefix is a credential: the provider callbacks' per-deployment path
 * secret (docs/decisions.md § Payout providers: callbacks) and the transfer-link token, which alone
 * authorises reading its transfer request (OpenAPI resolveTransferLink). Case-insensitive, as
 * express routes them.
 */
const CREDENTIAL_PATHS: readonly RegExp[] = [
  /^(\/callbacks\/(?:mpesa|mtn-momo|smile-id)\/)[^/?]+/i,
  /^(\/tx\/transferLinks\/)[^/?]+/i,
];

/**
 * `url` with the values of secret-looking query parameters and the credentials in paths
 * (CREDENTIAL_PATHS) replaced, cut to MAX_LOGGED_URL characters (docs/decisions.md § Personal data
 * and secrets).
 */
export function loggedUrl(original: string): string {
  const url = CREDENTIAL_PATHS.reduce((text, path) => text.replace(path, '$1[redacted]'), original);
  const at = url.indexOf('?');
  if (at < 0) return url.slice(0, MAX_LOGGED_URL);
  const query = url.slice(at + 1).split('&').map((pair) => {
    const eq = pair.indexOf('=');
    return eq >= 0 && SECRET_PARAM.test(pair.slice(0, eq)) ? `${pair.slice(0, eq)}=[redacted]` : pair;
  });
  return `${url.slice(0, at)}?${query.join('&')}`.slice(0, MAX_LOGGED_URL);
}
