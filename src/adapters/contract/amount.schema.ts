import { z } from 'zod';
import 'zod-openapi';

/** An amount a caller sends: a JSON number, or a decimal string for callers that avoid floats (docs/decisions.md § Money). */
export const AmountInput = z
  .union([z.number(), z.string().regex(/^\d+(\.\d+)?$/, 'must be a decimal number')])
  .meta({ description: 'Amount as a JSON number (a decimal string is accepted too)', example: 1500 });

/**
 * An amount in an answer: an exact decimal string at its currency's scale (docs/decisions.md §
 * Money). Each use gives its own description and an example at its currency's scale.
 */
export const DecimalString = z.string().regex(/^-?\d+(\.\d+)?$/).meta({ description: 'Exact decimal amount as a string', example: '12.115764' });
