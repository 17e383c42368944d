import express, { Router, type RequestHandler } from 'express';
import type { IncomingHttpHeaders } from 'node:http';
import type { Logger } from 'pino';
import { clientAddressOf, type ProxyTrust } from '../access/client-address';
import type { AddressRateLimits } from '../access/rate-limits';
import { sendShapeA } from './http-errors';

/** One provider callback as received: path parameters, headers, the raw body bytes (signatures are over them), the client address. */
export interface CallbackInput {
  readonly params: Readonly<Record<string, string>>;
  readonly headers: IncomingHttpHeaders;
  readonly rawBody: Buffer;
  /** After the TRUST_PROXY rules. */
  readonly remoteAddress: string;
}

/** The answer the provider gets. */
export interface CallbackAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

/** A provider callback endpoint: an express path under `/callbacks` and its handler (built in src/app). */
export interface CallbackEndpoint {
  readonly method: 'post' | 'put';
  readonly path: string;
  /** Largest body accepted (express `limit` syntax); CALLBACK_BODY_LIMIT when unset. */
  readonly bodyLimit?: string;
  handle(input: CallbackInput): Promise<CallbackAnswer>;
}

/** Callback bodies are small JSON documents; anything larger is refused with 413. */
const CALLBACK_BODY_LIMIT = '64kb';

/** What the callback routes share: which proxies' X-Forwarded-For counts, the per-address limit, a logger. */
export interface CallbackRouteDeps {
  readonly trust: ProxyTrust;
  readonly limits: AddressRateLimits;
  readonly logger: Logger;
}

/**
 * Provider callback routes (docs/decisions.md § Payout providers: callbacks), outside tenant
 * authentication: each handler verifies its provider's source address, then its signature or
 * path secret, itself. Before the body is read, each request counts against its client address's
 * limit (docs/decisions.md § Rate limits and abuse limits): over it, 429 `rate_limited` in shape A
 * with `Retry-After`, nothing else done. The body is read raw, since signatures cover its exact
 * bytes. A handler that throws answers 500 (the provider sends the callback again) and is logged
 * without the body.
 */
export function providerCallbackRouter(endpoints: readonly CallbackEndpoint[], deps: CallbackRouteDeps): Router {
  const router = Router();
  const raw = (limit: string) => express.raw({ type: () => true, limit });
  const limit: RequestHandler = async (req, res, next) => {
    const address = clientAddressOf(req, deps.trust);
    res.locals.callbackAddress = address;
    const rate = await deps.limits.consume(address);
    if (rate.allowed) return next();
    if (!req.complete) res.set('Connection', 'close');
    res.set('Retry-After', String(rate.retryAfterS));
    sendShapeA(res, 'rate_limited', `Too many callback requests from this address; retry after ${rate.retryAfterS} s`);
  };
  for (const endpoint of endpoints) {
    router[endpoint.method](endpoint.path, limit, raw(endpoint.bodyLimit ?? CALLBACK_BODY_LIMIT), async (req, res) => {
      try {
        const answer = await endpoint.handle({
          params: req.params as Record<string, string>,
          headers: req.headers,
          rawBody: Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0),
          remoteAddress: res.locals.callbackAddress as string,
        });
        res.status(answer.status).type(answer.contentType).send(answer.body);
      } catch (error) {
        deps.logger.error({ err: error, route: endpoint.path, requestId: res.locals.requestId }, 'provider callback failed');
        sendShapeA(res, 'internal_error', 'Internal error');
      }
    });
  }
  return router;
}
