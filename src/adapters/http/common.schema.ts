import { z } from 'zod';
import 'zod-openapi';
import { SHAPE_A_STATUS } from '../contract/error-codes';

/** Error shape A (docs/decisions.md § Errors: shapes per route family). */
export const ErrorA = z
  .object({
    statusCode: z.number().int(),
    message: z.string(),
    code: z.enum(Object.keys(SHAPE_A_STATUS) as [keyof typeof SHAPE_A_STATUS]),
  })
  .meta({ id: 'ErrorA', description: 'Error shape A (docs/decisions.md § Errors: shapes per route family)' });

/** Error shape B (docs/decisions.md § Errors: shapes per route family), used by POST /momo/payout refusals. */
export const ErrorB = z
  .object({ error: z.object({ code: z.string() }), message: z.string(), statusCode: z.number().int(), details: z.record(z.string(), z.unknown()) })
  .meta({ id: 'ErrorB', description: 'Error shape B (docs/decisions.md § Errors: shapes per route family)' });

/** Error shape D (docs/decisions.md § Errors: shapes per route family), used by GET /fx/convert. */
export const ErrorD = z
  .object({ error: z.number().int(), message: z.string(), details: z.record(z.string(), z.unknown()) })
  .meta({ id: 'ErrorD', description: 'Error shape D (docs/decisions.md § Errors: shapes per route family)' });

/** The standard error responses of an authenticated route, in shape A. */
export const AUTH_ERRORS = {
  '400': { description: 'Validation failed (validation_error)', schema: ErrorA },
  '401': { description: 'Missing, malformed or revoked API key (unauthorized)', schema: ErrorA },
  '403': { description: 'The key lacks the scope this operation needs (forbidden)', schema: ErrorA },
  '429': { description: 'Too many requests (rate_limited)', schema: ErrorA },
} as const;

/** A decimal amount on the wire: a string like "1500.00". */
export const DecimalString = z.string().regex(/^-?\d+(\.\d+)?$/).meta({ description: 'Exact decimal amount as a string', example: '11.622583' });
