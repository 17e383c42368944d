import express, { Router } from 'express';
import type { IncomingHttpHeaders } from 'node:http';
import type { Logger } from 'pino';
import { clientAddressOf, type ProxyTrust } from '../access/client-address';
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
  handle(input: CallbackInput): Promise<CallbackAnswer>;
}

/** Callback bodies are small JSON documents; anything larger is refused with 413. */
const CALLBACK_BODY_LIMIT = '64kb';

/**
 * Provider callback routes (docs/decisions.md § Payout providers: callbacks), outside tenant
 * authentication: each handler verifies its provider's signature or path secret and source
 * address itself. The body is read raw, since signatures cover its exact bytes. A handler that
 * throws answers 500 (the provider sends the callback again) and is logged without the body.
 */
export function providerCallbackRouter(endpoints: readonly CallbackEndpoint[], trust: ProxyTrust, logger: Logger): Router {
  const router = Router();
  const raw = express.raw({ type: () => true, limit: CALLBACK_BODY_LIMIT });
  for (const endpoint of endpoints) {
    router[endpoint.method](endpoint.path, raw, async (req, res) => {
      try {
        const answer = await endpoint.handle({
          params: req.params as Record<string, string>,
          headers: req.headers,
          rawBody: Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0),
          remoteAddress: clientAddressOf(req, trust),
        });
        res.status(answer.status).type(answer.contentType).send(answer.body);
      } catch (error) {
        logger.error({ err: error, route: endpoint.path, requestId: res.locals.requestId }, 'provider callback failed');
        sendShapeA(res, 'internal_error', 'Internal error');
      }
    });
  }
  return router;
}
