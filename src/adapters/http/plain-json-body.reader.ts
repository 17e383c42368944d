import type { RequestHandler } from 'express';

/** What body-parser's errors carry and the error handler reads (docs/decisions.md § Errors: shapes per route family). */
interface BodyError extends Error {
  readonly status: number;
  readonly type: string;
}

/** `Content-Type` values read here; every other one (another charset, `+json`, parameters) goes to body-parser. */
const PLAIN_TYPES = new Set(['application/json', 'application/json; charset=utf-8', 'application/json;charset=utf-8']);
const DIGITS = /^\d{1,9}$/;
/** JSON's white space (RFC 8259 § 2), which body-parser's strict mode skips before the first character. */
const FIRST_CHARACTER = /[^ \t\n\r]/;
/** Bodies up to this size only (bytes): GraphQL reads are small, and a larger body gains nothing here. */
const PLAIN_MAX_BYTES = 64 * 1024;

/**
 * The largest body (bytes) the plain path takes under body-parser's `limit` (as `bytes` reads it:
 * a whole number with b, kb, mb or gb, 1024-based), at most PLAIN_MAX_BYTES; 0, so that every body
 * goes to body-parser, for a limit written any other way.
 */
export function plainLimitOf(limit: string): number {
  const match = /^(\d+)\s*(b|kb|mb|gb)?$/i.exec(limit.trim());
  if (!match) return 0;
  const unit = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 }[(match[2] ?? 'b').toLowerCase() as 'b'];
  return Math.min(PLAIN_MAX_BYTES, Number(match[1]) * unit);
}

/**
 * A JSON body reader for the plain case, in front of body-parser's (`fallback`): a request with a
 * `Content-Length` of at most `limitBytes` (plainLimitOf of the fallback's limit), no `Content-Encoding` or
 * `Transfer-Encoding`, and a `Content-Type` of `application/json` (optionally `; charset=utf-8`)
 * is read here, decoded as UTF-8 and parsed as body-parser's strict mode does: an empty body is
 * `{}`, a body whose first character other than white space is neither `{` nor `[` is refused,
 * a byte-order mark is dropped. Refusals are body-parser's errors (`status` and `type`:
 * `entity.parse.failed` 400, `request.aborted` 400), so the error handler answers them as it
 * answers body-parser's. Every other request, and one whose body was already read, goes to
 * `fallback` unchanged. Why: body-parser's general machinery (charset and encoding negotiation,
 * inflation, stream bookkeeping) cost a GraphQL read about a tenth of its server CPU
 * (docs/decisions.md § Performance, "GraphQL reads skip Apollo's pipeline").
 */
export function plainJsonBody(limitBytes: number, fallback: RequestHandler): RequestHandler {
  return (req, res, next) => {
    const headers = req.headers;
    const length = headers['content-length'];
    const type = headers['content-type']?.toLowerCase();
    const plain = (req as { _body?: boolean })._body !== true && type !== undefined && PLAIN_TYPES.has(type)
      && length !== undefined && DIGITS.test(length) && Number(length) <= limitBytes
      && headers['content-encoding'] === undefined && headers['transfer-encoding'] === undefined;
    if (!plain) return fallback(req, res, next);
    const chunks: Buffer[] = [];
    let settled = false;
    const fail = (status: number, errorType: string, message: string) => {
      if (settled) return;
      settled = true;
      next(Object.assign(new Error(message), { status, statusCode: status, type: errorType, expose: true }) as BodyError);
    };
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('aborted', () => fail(400, 'request.aborted', 'request aborted'));
    req.on('error', () => fail(400, 'request.aborted', 'request aborted'));
    req.on('end', () => {
      if (settled) return;
      let text = (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)).toString('utf8');
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      let body: unknown;
      try {
        body = parseStrict(text);
      } catch {
        return fail(400, 'entity.parse.failed', 'Request body is not valid JSON');
      }
      settled = true;
      (req as { _body?: boolean })._body = true;
      req.body = body;
      next();
    });
  };
}

/** body-parser's strict JSON: `{}` for an empty body, only an object or an array at the top. Throws SyntaxError. */
function parseStrict(text: string): unknown {
  if (text.length === 0) return {};
  const first = FIRST_CHARACTER.exec(text)?.[0];
  if (first !== '{' && first !== '[') throw new SyntaxError('not an object or an array');
  return JSON.parse(text);
}
