import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { SHAPE_A_STATUS } from '../contract/error-codes';
import type { ShapeA } from './http-errors';
import { createHttpServer, type ServerTimeouts } from './http-server';
import { requestIdOf } from './request-log';

/** A listening HTTP server whose handler is mounted once the service is built, and that drains on shutdown. */
export interface HttpServer {
  readonly server: Server;
  /** Starts handing requests to `handler` (until then every request gets 503 `service_unavailable`). */
  serve(handler: RequestListener): void;
  /**
   * Stops accepting connections and waits for in-flight requests, at most `graceMs` milliseconds;
   * then closes the connections still open. Requests that arrive meanwhile on kept-alive
   * connections are served with `Connection: close`. Resolves with how many requests were cut.
   */
  drain(graceMs: number): Promise<{ cut: number }>;
}

/** Why a listen failed, in one sentence an operator can act on. */
export class ListenError extends Error {
  constructor(readonly address: string, readonly code: string | undefined, cause: unknown) {
    const reason = code === 'EADDRINUSE' ? 'the address is already in use (another instance?)'
      : code === 'EACCES' ? 'permission denied (ports under 1024 need privileges)'
        : cause instanceof Error ? cause.message : String(cause);
    super(`cannot listen on ${address}: ${reason}`, { cause });
  }
}

/**
 * Binds `host:port` before anything else starts (docs/decisions.md § Running it), so a taken port
 * fails the start at once, before the database, migrations or workers run. The server is
 * `createHttpServer`'s (its timeouts and shape A parser errors). Rejects with a ListenError. Until
 * `serve()` is called, every request is answered 503 `service_unavailable` with `Retry-After: 1`.
 */
export async function listenHttp(port: number, host: string, timeouts: ServerTimeouts, logger: Logger): Promise<HttpServer> {
  const inFlight = new Set<ServerResponse>();
  let handler: RequestListener = answerStarting;
  let draining = false;
  const server = createHttpServer((req, res) => {
    inFlight.add(res);
    res.once('close', () => {
      inFlight.delete(res);
      // The connection goes idle once its response is flushed: close it then rather than at the deadline.
      if (draining && inFlight.size === 0) setImmediate(() => server.closeIdleConnections());
    });
    if (draining) res.setHeader('connection', 'close');
    handler(req, res);
  }, timeouts, logger);
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => reject(new ListenError(`${host}:${port}`, error.code, error)));
    server.listen(port, host, () => resolve());
  });
  return {
    server,
    serve: (next) => {
      handler = next;
    },
    drain: async (graceMs) => {
      draining = true;
      for (const res of inFlight) if (!res.headersSent) res.setHeader('connection', 'close');
      let cut = 0;
      const deadline = setTimeout(() => {
        cut = inFlight.size;
        server.closeAllConnections();
      }, graceMs);
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      if (inFlight.size === 0) server.closeIdleConnections();
      await closed;
      clearTimeout(deadline);
      return { cut };
    },
  };
}

/** 503 shape A while the service is still starting (the port is bound first), with its `Request-Id` like every answer. */
function answerStarting(req: IncomingMessage, res: ServerResponse): void {
  const incoming = req.headers['x-request-id'];
  const requestId = requestIdOf(typeof incoming === 'string' ? incoming : undefined);
  const body = JSON.stringify({
    statusCode: SHAPE_A_STATUS.service_unavailable, code: 'service_unavailable', message: 'The service is starting; retry shortly',
    details: { requestId },
  } satisfies ShapeA);
  res.writeHead(SHAPE_A_STATUS.service_unavailable, {
    'content-type': 'application/json; charset=utf-8', 'retry-after': '1', 'request-id': requestId,
  });
  res.end(body);
}
