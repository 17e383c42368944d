import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { SHAPE_A_STATUS, type ShapeA, type ShapeACode } from './http-errors';

/** Node's HTTP parser failures that have a status of their own; every other one is a 400. */
const PARSER_ERRORS: Readonly<Record<string, { code: ShapeACode; message: string }>> = {
  HPE_HEADER_OVERFLOW: { code: 'headers_too_large', message: 'The request line and headers are too large (16 KiB at most)' },
  HPE_URI_TOO_LONG: { code: 'uri_too_long', message: 'The request URL is too long' },
};
const MALFORMED = { code: 'validation_error', message: 'Malformed HTTP request' } as const;

/**
 * Answers requests that Node's HTTP parser refuses before express sees them (headers or URL over
 * the size limit, malformed request lines) in error shape A with a JSON body, instead of Node's
 * bodiless default (DESIGN.md 7: every error in a documented shape). The connection is closed.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // A reset socket cannot be written to; one whose response already started must just close.
    if (error.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
    const { code, message } = PARSER_ERRORS[error.code ?? ''] ?? MALFORMED;
    const statusCode = SHAPE_A_STATUS[code];
    const body = JSON.stringify({ statusCode, message, code } satisfies ShapeA);
    socket.end(
      `HTTP/1.1 ${statusCode} ${STATUS_CODES[statusCode]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
