import { createServer, type RequestListener, type Server } from 'node:http';
import type { Logger } from 'pino';
import { answerClientErrors } from './client-errors';

/** The server's timeouts, in ms (docs/decisions.md § Rate limits and abuse limits). */
export interface ServerTimeouts {
  /** Until the request line and headers have arrived (HTTP_HEADERS_TIMEOUT_MS). */
  readonly headersMs: number;
  /** Until the whole request, body included, has arrived (HTTP_REQUEST_TIMEOUT_MS); at least `headersMs`. */
  readonly requestMs: number;
  /** How long an idle keep-alive connection stays open (HTTP_KEEP_ALIVE_TIMEOUT_MS). */
  readonly keepAliveMs: number;
}

/**
 * The HTTP server of `app`, not yet listening, for main and the tests alike: a request whose
 * headers or body arrive slower than `timeouts` gets 408 `request_timeout` in shape A and its
 * connection is closed; idle keep-alive connections close after `keepAliveMs`; parser failures
 * are answered in shape A (answerClientErrors). Node checks the first two every
 * `connectionsCheckingInterval`, set here to a quarter of the headers timeout (at most 1 s) so a
 * timeout is enforced within a quarter of its length rather than Node's default 30 s.
 */
export function createHttpServer(app: RequestListener, timeouts: ServerTimeouts, logger: Logger): Server {
  const server = createServer({
    headersTimeout: timeouts.headersMs,
    requestTimeout: timeouts.requestMs,
    connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(timeouts.headersMs / 4))),
  }, app);
  server.keepAliveTimeout = timeouts.keepAliveMs;
  answerClientErrors(server, logger);
  return server;
}
