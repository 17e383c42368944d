import { z } from 'zod';
import type { ShapeACode } from './error-codes';
import { MONEY_OUT_COUNTRIES, PAYMENT_METHODS } from '../../core/catalog/catalog';

/** Query of GET /v1/corridors and arguments of GraphQL `corridors` (OpenAPI listCorridors): both optional filters. */
export const CorridorQuery = z.strictObject({
  country: z.enum(MONEY_OUT_COUNTRIES).optional().meta({ description: 'Only this recipient country (ISO 3166-1 alpha-2)' }),
  paymentMethod: z.enum(PAYMENT_METHODS).optional().meta({ description: 'Only this payout method' }),
});

/** Failures of listing corridors and the error code each transport answers (docs/api.md § Errors). */
export const CORRIDOR_ERRORS = {
  validation_error: 'validation_error',
} as const satisfies Record<'validation_error', ShapeACode>;
