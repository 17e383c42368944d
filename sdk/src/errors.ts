import type { components } from './generated/openapi';

/**
 * Typed errors for the four error shapes the API answers in (docs/decisions.md § Errors: shapes
 * per route family). Every class carries the HTTP status, the `Request-Id` of the answer (quote it
 * when you ask about a request) and the parsed body; `shape` tells them apart in a `switch`.
 */

/** The codes of shape A, the shape of every `/v1` route and of every validation, authentication and rate-limit failure. */
export type ApiErrorCode = components['schemas']['ErrorA']['code'];

/** The codes of shape C (resolution and transfer-request routes), found in its `error` member. */
export type ResolutionErrorCode = components['schemas']['ErrorC']['error'];

/** The codes of shape D (`GET /fx/convert`): the shape A code of the same meaning, found in its `code` member. */
export type FxErrorCode = components['schemas']['ErrorD']['code'];

/** Which of the documented shapes an error body has; `unknown` when it matches none (a proxy's page, say). */
export type ErrorShape = 'A' | 'B' | 'C' | 'D' | 'unknown';

/** What every error answer of the API gives the caller, whatever its shape. */
export abstract class PayoutGatewayError extends Error {
  /** Which documented error shape the body had. */
  abstract readonly shape: ErrorShape;

  /**
   * @param status the HTTP status of the answer.
   * @param body the parsed JSON body (or the text when it was not JSON).
   * @param requestId the answer's `Request-Id` header, when present.
   * @param retryAfterSeconds the answer's `Retry-After` in seconds, when present and numeric.
   * @param idempotencyKey the `Idempotency-Key` the refused request was sent under: set on every
   *   error `moneyOut` throws, so the caller can send the payout again under the same key.
   */
  constructor(
    message: string,
    readonly status: number,
    readonly body: unknown,
    readonly requestId: string | undefined,
    readonly retryAfterSeconds: number | undefined,
    readonly idempotencyKey: string | undefined,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Shape A `{statusCode, message, code}`: branch on `code` (`validation_error`, `insufficient_balance`, ...). */
export class ApiError extends PayoutGatewayError {
  readonly shape = 'A' as const;
  /** The value to branch on, e.g. `idempotency_key_reused` (422) or `rate_limited` (429). */
  readonly code: ApiErrorCode;
  /** The body's `details` when it carries any (e.g. which fields a validation error is about); undefined otherwise. */
  readonly details: unknown;

  constructor(status: number, body: ShapeA, requestId?: string, retryAfterSeconds?: number, idempotencyKey?: string) {
    super(body.message, status, body, requestId, retryAfterSeconds, idempotencyKey);
    this.code = body.code as ApiErrorCode;
    this.details = body.details;
  }
}

/** Shape B `{error: {code}, message, statusCode, details}`: refusals of the legacy `POST /momo/payout`. */
export class LegacyPayoutError extends PayoutGatewayError {
  readonly shape = 'B' as const;
  /** The code inside `error`, e.g. `duplicate_reference` or `tenant_not_configured`. */
  readonly code: string;
  /** Free-form details of the refusal. */
  readonly details: Record<string, unknown>;

  constructor(status: number, body: ShapeB, requestId?: string, retryAfterSeconds?: number, idempotencyKey?: string) {
    super(body.message, status, body, requestId, retryAfterSeconds, idempotencyKey);
    this.code = body.error.code;
    this.details = body.details ?? {};
  }
}

/** Shape C `{message, error, details, statusCode}`: resolution (`/momo/resolve`, `/account/resolve`, `/id/resolve`) and `/tx/*` routes. */
export class ResolutionError extends PayoutGatewayError {
  readonly shape = 'C' as const;
  /** The code, e.g. `account_not_found` (404), `link_expired` (410), `upstream_unavailable` (502). */
  readonly code: ResolutionErrorCode;
  /** A sentence on what was not found or failed. */
  readonly details: string;

  constructor(status: number, body: ShapeC, requestId?: string, retryAfterSeconds?: number, idempotencyKey?: string) {
    super(body.message, status, body, requestId, retryAfterSeconds, idempotencyKey);
    this.code = body.error as ResolutionErrorCode;
    this.details = body.details;
  }
}

/** The code each shape D status means (docs/decisions.md § Errors: shapes per route family, FX). */
const FX_CODE_BY_STATUS: Readonly<Record<number, FxErrorCode>> = { 422: 'unsupported_corridor', 503: 'rate_unavailable' };

/**
 * Shape D `{error: <numeric status>, message, details, code}`: refusals of `GET /fx/convert`
 * (unsupported pair 422 `unsupported_corridor`, no live rate for the pair now 503 `rate_unavailable`,
 * with `Retry-After`).
 */
export class FxError extends PayoutGatewayError {
  readonly shape = 'D' as const;
  /**
   * The value to branch on: the body's `code`, the shape A code of the same meaning
   * (docs/decisions.md § Errors: shapes per route family). A body without one (a service older
   * than the code) gets the code its status documents: 422 `unsupported_corridor`, 503
   * `rate_unavailable`; undefined for any other status.
   */
  readonly code: FxErrorCode | undefined;
  /** Free-form details, e.g. the currency pair asked for. */
  readonly details: Record<string, unknown>;

  constructor(status: number, body: ShapeD, requestId?: string, retryAfterSeconds?: number, idempotencyKey?: string) {
    super(body.message, status, body, requestId, retryAfterSeconds, idempotencyKey);
    this.code = typeof body.code === 'string' ? body.code as FxErrorCode : FX_CODE_BY_STATUS[status];
    this.details = body.details ?? {};
  }
}


/** An error answer in none of the documented shapes (e.g. a proxy's HTML page); `body` holds what came. */
export class UnexpectedResponseError extends PayoutGatewayError {
  readonly shape = 'unknown' as const;

  constructor(status: number, body: unknown, requestId?: string, retryAfterSeconds?: number, idempotencyKey?: string) {
    super(`Unexpected HTTP ${status} answer`, status, body, requestId, retryAfterSeconds, idempotencyKey);
  }
}

/**
 * A money-out that got no usable answer: the network failed, the request timed out or was
 * aborted, or a success answer could not be read. The service may have made the payout:
 * `moneyOut` again with the same body and `idempotencyKey` answers that payout, never a second one
 * (docs/api.md § Creating a payout safely). `cause` is what was thrown (e.g. fetch's
 * `TypeError: fetch failed`, or the abort signal's reason).
 */
export class NoAnswerError extends Error {
  /** @param idempotencyKey the `Idempotency-Key` the money-out was sent under. */
  constructor(readonly idempotencyKey: string, cause: unknown) {
    super(`No answer to the money-out sent under Idempotency-Key ${idempotencyKey}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'NoAnswerError';
  }
}

/** Every error class {@link toPayoutGatewayError} returns. */
export type AnyPayoutGatewayError = ApiError | LegacyPayoutError | ResolutionError | FxError | UnexpectedResponseError;

interface ShapeA { statusCode: number; message: string; code: string; details?: unknown }
interface ShapeB { error: { code: string }; message: string; statusCode: number; details?: Record<string, unknown> }
interface ShapeC { message: string; error: string; details: string; statusCode: number }
interface ShapeD { error: number; message: string; details?: Record<string, unknown>; code?: string }

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** The shape of an error body, judged by its members alone (the status does not tell: 409 is A or B). */
export function errorShapeOf(body: unknown): ErrorShape {
  if (!isObject(body) || typeof body.message !== 'string') return 'unknown';
  const error = body.error;
  if (typeof error === 'number') return 'D';
  if (typeof error === 'string' && typeof body.details === 'string') return 'C';
  if (isObject(error) && typeof error.code === 'string') return 'B';
  if (error === undefined && typeof body.code === 'string') return 'A';
  return 'unknown';
}

/**
 * The typed error for an error answer: `response` gives the status and the `Request-Id` and
 * `Retry-After` headers, `body` is the parsed JSON (or text) of the answer, `idempotencyKey` the
 * key the request was sent under, if any (kept on the error).
 */
export function toPayoutGatewayError(response: Response, body: unknown, idempotencyKey?: string): AnyPayoutGatewayError {
  const requestId = response.headers.get('request-id') ?? undefined;
  const retryAfter = response.headers.get('retry-after');
  const retryAfterSeconds = retryAfter !== null && /^\d+$/.test(retryAfter.trim()) ? Number(retryAfter) : undefined;
  const status = response.status;
  switch (errorShapeOf(body)) {
    case 'A': return new ApiError(status, body as ShapeA, requestId, retryAfterSeconds, idempotencyKey);
    case 'B': return new LegacyPayoutError(status, body as ShapeB, requestId, retryAfterSeconds, idempotencyKey);
    case 'C': return new ResolutionError(status, body as ShapeC, requestId, retryAfterSeconds, idempotencyKey);
    case 'D': return new FxError(status, body as ShapeD, requestId, retryAfterSeconds, idempotencyKey);
    case 'unknown': return new UnexpectedResponseError(status, body, requestId, retryAfterSeconds, idempotencyKey);
  }
}

/**
 * The data of an openapi-fetch result, or throws its typed error ({@link AnyPayoutGatewayError}).
 * Use it around any `client.api.GET/POST/...` call: `const quote = unwrap(await client.api.GET('/fx/convert', ...))`.
 * `idempotencyKey`: the key the request was sent under, kept on the error.
 */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }, idempotencyKey?: string): T {
  if (!result.response.ok) throw toPayoutGatewayError(result.response, result.error, idempotencyKey);
  return result.data as T;
}
