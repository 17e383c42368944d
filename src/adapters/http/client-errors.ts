import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { SHAPE_A_STATUS, type ShapeACode } from '../contract/error-codes';
import type { ShapeA } from './http-errors';

/** Node's HTTP parser and timeout failures that have a status of their own; every other one is a 400. */
const PARSER_ERRORS: Readonly<Record<string, { code: ShapeACode; message: string }>> = {
  HPE_HEADER_OVERFLOW: { code: 'headers_too_large', message: 'The request line and headers are too large (16 KiB at most)' },
  HPE_URI_TOO_LONG: { code: 'uri_too_long', message: 'The request URL is too long' },
  ERR_HTTP_REQUEST_TIMEOUT: { code: 'request_timeout', message: 'The request did not arrive in time' },
};
const MALFORMED = { code: 'validation_error', message: 'Malformed HTTP request' } as const;

/**
 * Answers requests that Node refuses before express sees them or while they still arrive (headers
 * or URL over the size limit, malformed request lines, headers or body slower than the server's
 * timeouts) in error shape A with a JSON body and a `Request-Id`, instead of Node's bodiless
 * default (docs/decisions.md § Errors: shapes per route family). The connection is closed and one
 * info line logged (no stack: the fault is the client's).
 */
export function answerClientErrors(server: Server, logger: Logger): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // A reset socket cannot be written to; one whose response already started must just close.
    if (error.code === 'ECONNRESET' || !socket.writable || responseStarted(socket)) return void socket.destroy();
    const { code, message } = PARSER_ERRORS[error.code ?? ''] ?? MALFORMED;
    const statusCode = SHAPE_A_STATUS[code];
    const requestId = randomUUID();
    logger.info({ requestId, status: statusCode, code, reason: error.code ?? error.message }, 'client error');
    const body = JSON.stringify({ statusCode, message, code, details: { requestId } } satisfies ShapeA);
    socket.end(
      `HTTP/1.1 ${statusCode} ${STATUS_CODES[statusCode]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nRequest-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}

/** Whether express already sent the status line on `socket` (Node keeps the response there). */
function responseStarted(socket: Duplex): boolean {
  return (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
}
