import type { Response } from 'express';
import {
  SHAPE_A_STATUS, SHAPE_B_STATUS, SHAPE_C_STATUS, SHAPE_D_STATUS, type ShapeACode, type ShapeBCode, type ShapeCCode, type ShapeDCode,
} from '../contract/error-codes';

/**
 * One refused input field of a validation error: `path` names where it sits, starting with the
 * request part (`body.accountNumber`, `query.status.0`, `path.paymentId`, `header.Idempotency-Key`;
 * list items by their index), `message` says what is wrong with it (docs/api.md § Errors).
 */
export interface FieldProblem {
  readonly path: string;
  readonly message: string;
}

/**
 * Body of error shape A: `{statusCode, message, code, details}` (docs/decisions.md § Errors: shapes
 * per route family). `details.requestId` is the response's `Request-Id`; a `validation_error` also
 * lists the refused fields in `details.fields` (empty when the failure is not one field's).
 */
export interface ShapeA {
  statusCode: number;
  message: string;
  code: ShapeACode;
  details: { requestId: string; fields?: readonly FieldProblem[] };
}

/** A part of the request that carries a route's input, as the first segment of a FieldProblem path. */
export type InputPart = 'body' | 'query' | 'path';

/** The request id the request log gave this response (docs/decisions.md § Running it). */
export function responseRequestId(res: Response): string {
  return String(res.locals.requestId ?? res.get('Request-Id') ?? '');
}

/** The parsed parts of a request, where fieldsOf looks for a refused member. */
export interface RequestParts {
  readonly body?: unknown;
  readonly query?: unknown;
  readonly params?: unknown;
}

/**
 * The field problem of a use case's `validation_error`, whose `details.field` names the input
 * member it refused: its path starts with the request part holding that member (body, then query,
 * then path; the first part the route has when none holds it). `rename` gives REST's path where
 * REST names the member otherwise than the core (the money-out's idempotency key is a header).
 * Empty when the failure names no field.
 */
export function fieldsOf(
  failure: { readonly message: string; readonly details?: Readonly<Record<string, unknown>> },
  req: RequestParts,
  rename: Readonly<Record<string, string>> = {},
): FieldProblem[] {
  const field = failure.details?.field;
  if (typeof field !== 'string') return [];
  const named = rename[field];
  if (named) return [{ path: named, message: failure.message }];
  const parts: [InputPart, unknown][] = [['body', req.body], ['query', req.query], ['path', req.params]];
  const holder = parts.find(([, value]) => isObject(value) && field in value) ?? parts.find(([, value]) => isObject(value) && Object.keys(value).length > 0);
  return [{ path: `${holder?.[0] ?? 'body'}.${field}`, message: failure.message }];
}

const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null;

/**
 * Sets `Retry-After` (seconds) when a use case's failure says how soon to retry
 * (`details.retryAfterS`: a temporary refusal such as `provider_unavailable`); leaves it unset otherwise.
 */
export function setRetryAfter(res: Response, failure: { readonly details?: Readonly<Record<string, unknown>> }): void {
  const seconds = failure.details?.retryAfterS;
  if (typeof seconds === 'number' && Number.isInteger(seconds) && seconds > 0) res.set('Retry-After', String(seconds));
}

/** The `details` a shape B body may carry of a failure: only `retryAfterS` (seconds), when the failure has it. */
export function retryDetails(failure: { readonly details?: Readonly<Record<string, unknown>> }): Record<string, unknown> {
  const seconds = failure.details?.retryAfterS;
  return typeof seconds === 'number' ? { retryAfterS: seconds } : {};
}

/** Sends error shape A with the status its code implies; a `validation_error` carries `fields` (default none). */
export function sendShapeA(res: Response, code: ShapeACode, message: string, fields: readonly FieldProblem[] = []): void {
  const statusCode = SHAPE_A_STATUS[code];
  const details = code === 'validation_error' ? { requestId: responseRequestId(res), fields } : { requestId: responseRequestId(res) };
  res.status(statusCode).json({ statusCode, message, code, details } satisfies ShapeA);
}

/**
 * Sends error shape B `{error: {code}, message, statusCode, details, code}` (docs/decisions.md §
 * Errors: shapes per route family) with the status its code implies. The top-level `code` repeats
 * `error.code`, so every error shape has a `code` to branch on; `details.requestId` is the `Request-Id`.
 */
export function sendShapeB(res: Response, code: ShapeBCode, message: string, details: Record<string, unknown> = {}): void {
  const statusCode = SHAPE_B_STATUS[code];
  res.status(statusCode).json({ error: { code }, message, statusCode, details: { ...details, requestId: responseRequestId(res) }, code });
}

/**
 * Sends error shape D `{error: <numeric status>, message, details, code}` (docs/decisions.md § Errors:
 * shapes per route family; FX) with the status of its code; `code` is the shape A code of the same
 * meaning, `details.requestId` the `Request-Id`.
 */
export function sendShapeD(res: Response, code: ShapeDCode, message: string, details: Record<string, unknown> = {}): void {
  const status = SHAPE_D_STATUS[code];
  res.status(status).json({ error: status, message, details: { ...details, requestId: responseRequestId(res) }, code });
}

/** Body of error shape C: `{message, error, details, statusCode, code}` (docs/decisions.md § Errors: shapes per route family); `error` and `code` are the code, `details` a hint. */
export interface ShapeC {
  message: string;
  error: ShapeCCode;
  details: string;
  statusCode: number;
  code: ShapeCCode;
}

/** Sends error shape C with the status its code implies. */
export function sendShapeC(res: Response, code: ShapeCCode, message: string, details = ''): void {
  const statusCode = SHAPE_C_STATUS[code];
  res.status(statusCode).json({ message, error: code, details, statusCode, code } satisfies ShapeC);
}
