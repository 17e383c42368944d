import type { IncomingMessage } from 'node:http';
import { CloseCode, handleProtocols, makeServer, type ServerOptions } from 'graphql-ws';
import type { Logger } from 'pino';
import { WebSocket, type RawData, type WebSocketServer } from 'ws';

/** What every graphql-ws callback gets as `ctx.extra`: the socket, its upgrade request and who sent it. */
export interface WsExtra {
  readonly socket: WebSocket;
  readonly request: IncomingMessage;
  /** The client's address (TRUST_PROXY applied), for the failed-authentication throttle. */
  readonly clientAddress: string;
}

/** Message types only a server sends (graphql-transport-ws): from a client they are a protocol violation. */
const SERVER_ONLY_TYPES: ReadonlySet<unknown> = new Set(['connection_ack', 'next', 'error']);
/** A ping every this many ms; a client that does not answer within as long again is dropped. */
const KEEP_ALIVE_MS = 12_000;

/**
 * Binds graphql-ws's protocol (`makeServer`) to a `ws` server, modelled on graphql-ws's own
 * `useServer` but with the service's logging (docs/decisions.md § GraphQL): a socket error (an
 * oversized frame, a bad opcode: always the client's doing) is one warn line without a stack, `ws`
 * having already closed the socket with the matching code; a server-only message type from a client
 * closes with 4400 and never reaches graphql-ws (whose server would throw and close with 4500); a
 * fault in a callback is one error line and close 4500.
 */
export function bindGraphqlWs<P extends Record<string, unknown>>(
  wss: WebSocketServer,
  options: ServerOptions<P, WsExtra>,
  deps: { readonly logger: Logger; readonly addressOf: (request: IncomingMessage) => string },
): { dispose(): Promise<void> } {
  const server = makeServer<P, WsExtra>(options);
  const logger = deps.logger;
  wss.options.handleProtocols = handleProtocols;
  wss.on('error', (error: Error) => {
    logger.error({ err: error.message }, 'GraphQL WebSocket server error');
    for (const client of wss.clients) client.close(CloseCode.InternalServerError, 'Internal server error');
  });
  wss.on('connection', (socket: WebSocket, request: IncomingMessage) => {
    const clientAddress = deps.addressOf(request);
    socket.on('error', (error: Error & { code?: string }) => {
      logger.warn({ err: error.message, code: error.code, clientAddress }, 'GraphQL WebSocket client error; connection closed');
    });
    let pongWait: NodeJS.Timeout | undefined;
    const pings = setInterval(() => {
      if (socket.readyState !== WebSocket.OPEN) return;
      pongWait = setTimeout(() => socket.terminate(), KEEP_ALIVE_MS);
      socket.once('pong', () => clearTimeout(pongWait));
      socket.ping();
    }, KEEP_ALIVE_MS);
    const closed = server.opened({
      protocol: socket.protocol,
      send: (data) => new Promise<void>((resolve, reject) => {
        if (socket.readyState !== WebSocket.OPEN) return resolve();
        socket.send(data, (error) => (error ? reject(error) : resolve()));
      }),
      close: (code, reason) => socket.close(code, reason),
      onMessage: (handle) => socket.on('message', async (data: RawData, isBinary: boolean) => {
        if (!isBinary && SERVER_ONLY_TYPES.has(typeOf(data))) return void socket.close(CloseCode.BadRequest, 'Invalid message: a type only the server sends');
        try {
          await handle(String(data));
        } catch (error) {
          logger.error({ err: error }, 'GraphQL WebSocket message handling failed');
          socket.close(CloseCode.InternalServerError, 'Internal server error');
        }
      }),
    }, { socket, request, clientAddress });
    socket.once('close', (code, reason) => {
      clearTimeout(pongWait);
      clearInterval(pings);
      closed(code, String(reason)).catch((error: unknown) => logger.error({ err: error }, 'GraphQL WebSocket close handling failed'));
    });
  });
  return {
    async dispose() {
      for (const client of wss.clients) client.close(1001, 'Going away');
      wss.removeAllListeners();
      await new Promise<void>((resolve, reject) => wss.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

function typeOf(data: RawData): unknown {
  try {
    const message: unknown = JSON.parse(String(data));
    return message !== null && typeof message === 'object' ? (message as { type?: unknown }).type : undefined;
  } catch {
    return undefined;
  }
}
