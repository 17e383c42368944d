import { z } from 'zod';
import 'zod-openapi';
import { SHAPE_A_STATUS, SHAPE_B_STATUS, SHAPE_C_STATUS, SHAPE_D_STATUS } from '../contract/error-codes';
import { EXAMPLE_FIELD, EXAMPLE_MESSAGES, EXAMPLE_REQUEST_ID } from './error-examples';

/** Codes of a shape's status map as a zod enum. */
const codesOf = <C extends string>(statuses: Readonly<Record<C, number>>) => z.enum(Object.keys(statuses) as [C, ...C[]]);

/** One refused field of a validation error (docs/api.md § Errors). */
export const FieldProblemSchema = z
  .object({
    path: z.string().meta({
      description: 'Where the refused value sits: the request part (body, query, path, header), then the member names and list indexes, joined with dots',
      example: 'body.accountNumber',
    }),
    message: z.string().meta({ description: 'What is wrong with that value', example: 'Too small: expected string to have >=1 characters' }),
  })
  .meta({ id: 'FieldProblem', description: 'One refused input field of a validation_error' });

/** `details` of shape A: the request id, and the refused fields of a validation error. */
const ErrorADetails = z
  .object({
    requestId: z.string().meta({ description: 'The Request-Id header of this response: quote it when you ask us about the request', example: EXAMPLE_REQUEST_ID }),
    fields: z.array(FieldProblemSchema).optional().meta({ description: 'validation_error only: each refused field with its own message (empty when the failure is not one field\'s)' }),
  })
  .meta({ id: 'ErrorDetails', description: 'Machine-readable context of an error' });

const statusCode = (description: string) => z.number().int().min(400).max(599).meta({ description, example: 400 });

/** Error shape A (docs/decisions.md § Errors: shapes per route family): every /v1 error, and validation, authentication and rate limits everywhere. */
export const ErrorA = z
  .object({
    statusCode: statusCode('The HTTP status, repeated'),
    message: z.string().meta({ description: 'What went wrong, for a person; wording may change, branch on code', example: 'Invalid request: body.accountNumber: Too small: expected string to have >=1 characters' }),
    code: codesOf(SHAPE_A_STATUS).meta({ description: 'What went wrong, for a program: stable, one of a closed set' }),
    details: ErrorADetails,
  })
  .meta({
    id: 'ErrorA',
    description: 'Error shape A (docs/decisions.md § Errors: shapes per route family)',
    example: {
      statusCode: 400, code: 'validation_error', message: 'Invalid request: body.accountNumber: Too small: expected string to have >=1 characters',
      details: { requestId: EXAMPLE_REQUEST_ID, fields: [{ path: 'body.accountNumber', message: 'Too small: expected string to have >=1 characters' }] },
    },
  });

const loose = (description: string) => z.record(z.string(), z.unknown()).meta({ description });

/** Error shape B (docs/decisions.md § Errors: shapes per route family), used by POST /momo/payout refusals. */
export const ErrorB = z
  .object({
    error: z.object({ code: codesOf(SHAPE_B_STATUS).meta({ description: 'What went wrong, for a program' }) }).meta({ description: 'The legacy error object' }),
    message: z.string().meta({ description: 'What went wrong, for a person', example: 'Insufficient USDC balance' }),
    statusCode: statusCode('The HTTP status, repeated'),
    details: loose('Context of the refusal; requestId is the Request-Id of this response'),
    code: codesOf(SHAPE_B_STATUS).meta({ description: 'error.code again, so every error shape has a code to branch on' }),
  })
  .meta({
    id: 'ErrorB',
    description: 'Error shape B (docs/decisions.md § Errors: shapes per route family)',
    example: {
      error: { code: 'insufficient_balance' }, message: 'Insufficient USDC balance', statusCode: 422,
      details: { requestId: EXAMPLE_REQUEST_ID }, code: 'insufficient_balance',
    },
  });

/** Error shape C (docs/decisions.md § Errors: shapes per route family: resolve and transfer-request endpoints). `error` is the code, `details` a hint. */
export const ErrorC = z
  .object({
    message: z.string().meta({ description: 'What went wrong, for a person', example: 'No account 0123456789 at bank 058' }),
    error: codesOf(SHAPE_C_STATUS).meta({ description: 'What went wrong, for a program' }),
    details: z.string().meta({ description: 'A hint at what to do next', example: 'Check the account number and bank code' }),
    statusCode: statusCode('The HTTP status, repeated'),
    code: codesOf(SHAPE_C_STATUS).meta({ description: 'error again, so every error shape has a code to branch on' }),
  })
  .meta({
    id: 'ErrorC',
    description: 'Error shape C (docs/decisions.md § Errors: shapes per route family)',
    example: { message: 'No account 0123456789 at bank 058', error: 'account_not_found', details: 'Check the account number and bank code', statusCode: 404, code: 'account_not_found' },
  });

/** Error shape D (docs/decisions.md § Errors: shapes per route family), used by GET /fx/convert. */
export const ErrorD = z
  .object({
    error: statusCode('The HTTP status as a number (this shape\'s own name for it)'),
    message: z.string().meta({ description: 'What went wrong, for a person', example: 'No rate for KES to USDT' }),
    details: loose('Context of the refusal; requestId is the Request-Id of this response'),
    code: codesOf(SHAPE_D_STATUS).meta({ description: 'The shape A code of the same meaning, so every error shape has a code to branch on' }),
  })
  .meta({
    id: 'ErrorD',
    description: 'Error shape D (docs/decisions.md § Errors: shapes per route family)',
    example: { error: 422, message: 'No rate for KES to USDT', details: { requestId: EXAMPLE_REQUEST_ID }, code: 'unsupported_corridor' },
  });

/** Each error shape with its name and the status of each of its codes. */
const ERROR_SHAPES = new Map<z.ZodType, { readonly name: string; readonly statuses: Readonly<Record<string, number>> }>([
  [ErrorA, { name: 'ErrorA', statuses: SHAPE_A_STATUS }],
  [ErrorB, { name: 'ErrorB', statuses: SHAPE_B_STATUS }],
  [ErrorC, { name: 'ErrorC', statuses: SHAPE_C_STATUS }],
  [ErrorD, { name: 'ErrorD', statuses: SHAPE_D_STATUS }],
]);
const narrowed = new Map<string, z.ZodType>();

/**
 * The schema an operation declares for `status`: an error shape narrowed to the codes that status
 * carries (`ErrorA409`: `code` is duplicate_reference, idempotency_key_in_use, ...), any other
 * schema as it is. Every error shape has `code`, and the codes an operation declares in one shape
 * differ from those it declares in another, so a generated client's `error.code` compiles on every
 * operation and tells the shapes apart (docs/api.md § Errors).
 */
export function schemaForStatus(schema: z.ZodType, status: string): z.ZodType {
  const shape = ERROR_SHAPES.get(schema);
  if (!shape) return schema;
  const id = `${shape.name}${status}`;
  const known = narrowed.get(id);
  if (known) return known;
  const codes = Object.keys(shape.statuses).filter((code) => String(shape.statuses[code]) === status);
  if (codes.length === 0) return schema;
  const code = z.enum(codes as [string, ...string[]]).meta({ description: `With status ${status}, one of these` });
  // allOf the shape and its narrowed code: the shape stays one named component that clients know.
  const made = z.intersection(schema, z.looseObject({ code })).meta({
    id,
    description: `${shape.name} as answered with status ${status}: code ${codes.join(', ')} (docs/decisions.md § Errors: shapes per route family)`,
    example: errorExample(shape.name, Number(status), codes[0]!),
  });
  narrowed.set(id, made);
  return made;
}

/** A whole error body of `shape` for `code` answered with `status`, for the OpenAPI examples. */
function errorExample(shape: string, status: number, code: string): Record<string, unknown> {
  const message = EXAMPLE_MESSAGES[code as keyof typeof EXAMPLE_MESSAGES];
  const requestId = EXAMPLE_REQUEST_ID;
  switch (shape) {
    case 'ErrorA': return { statusCode: status, message, code, details: code === 'validation_error' ? { requestId, fields: [EXAMPLE_FIELD] } : { requestId } };
    case 'ErrorB': return { error: { code }, message, statusCode: status, details: { requestId }, code };
    case 'ErrorC': return { message, error: code, details: 'Check the account number and bank code', statusCode: status, code };
    default: return { error: status, message, details: { requestId }, code };
  }
}

/** The standard error responses of an authenticated route, in shape A. */
export const AUTH_ERRORS = {
  '400': { description: 'Validation failed (validation_error)', schema: ErrorA },
  '401': { description: 'Missing, malformed or revoked API key (unauthorized)', schema: ErrorA },
  '403': { description: 'The key lacks the scope this operation needs (forbidden)', schema: ErrorA },
  '429': { description: 'Too many requests (rate_limited)', schema: ErrorA },
} as const;

/** A decimal amount on the wire: a string like "1500.00" (defined with the contract's amounts). */
export { DecimalString } from '../contract/amount.schema';
