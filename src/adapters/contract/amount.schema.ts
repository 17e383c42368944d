import { z } from 'zod';
import 'zod-openapi';

/** An amount a caller sends: a JSON number, or a decimal string for callers that avoid floats (docs/decisions.md § Money). */
export const AmountInput = z
  .union([z.number(), z.string().regex(/^\d+(\.\d+)?$/, 'must be a decimal number')])
  .meta({ description: 'Amount as a JSON number (a decimal string is accepted too)', example: 1500 });
