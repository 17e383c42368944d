import { z } from 'zod';
import { PAYMENT_METHODS } from '../../core/catalog/catalog';
import type { PaymentListFilter, PaymentListQuery } from '../../core/payments/list-payments';
import { PAYMENT_STATUSES } from '../../core/payments/payment';
import { FIAT_CURRENCIES } from '../../core/shared/money';
import { PageQuery } from './page.schema';

/** Longest `reference` filter: the column's length (MONEY_OUT_LIMITS.reference). */
const MAX_REFERENCE = 128;

/**
 * A filter that matches any of several values: repeated (`status=failed&status=refunded`, how
 * OpenAPI's default `form` style with `explode` sends an array) or comma-separated
 * (`status=failed,refunded`). Each value must be one of `values`.
 */
function anyOf<const T extends readonly [string, ...string[]]>(values: T, description: string) {
  return z
    .preprocess(
      (raw) => (typeof raw === 'string' ? raw.split(',') : Array.isArray(raw) ? raw.flatMap((v) => (typeof v === 'string' ? v.split(',') : [v])) : raw),
      z.array(z.enum(values)).min(1).max(values.length),
    )
    .optional()
    .meta({ description });
}

/** An instant of the createdAt range: ISO 8601 with `Z` or an offset. */
const instant = (description: string, example: string) => z.iso.datetime({ offset: true }).optional().meta({ description, example });

/**
 * The payment list's filters (docs/api.md § Lists and paging), described once for both
 * transports: REST takes them as query parameters of GET /v1/payments (OpenAPI listPayments);
 * GraphQL's `payments(filter:)` may reuse the descriptions. They combine with AND; a filter of
 * several values matches any of them. `createdFrom` is inclusive, `createdTo` exclusive.
 */
export const PaymentListFilterFields = {
  status: anyOf(PAYMENT_STATUSES, 'Only payments in one of these statuses (repeat the parameter or separate values with commas)'),
  paymentMethod: anyOf(PAYMENT_METHODS, 'Only payments made with one of these payment methods'),
  destinationCurrency: anyOf(FIAT_CURRENCIES, 'Only payments paid out in one of these currencies'),
  reference: z.string().min(1).max(MAX_REFERENCE).optional().meta({ description: 'Only the payment with this reference of yours (exact match)', example: 'order-10045' }),
  createdFrom: instant('Only payments created at or after this instant (inclusive, ISO 8601)', '2026-11-01T00:00:00Z'),
  createdTo: instant('Only payments created before this instant (exclusive, ISO 8601)', '2026-12-01T00:00:00Z'),
} as const;

/** Query of GET /v1/payments (OpenAPI listPayments): `limit` and `cursor` of every list, plus the filters. */
export const PaymentListQuerySchema = PageQuery.extend(PaymentListFilterFields);

/** The REST query as the core's list query: `limit` is the page size `first`, `cursor` is `after`. */
export function toPaymentListQuery(query: z.output<typeof PaymentListQuerySchema>): PaymentListQuery {
  const filter: PaymentListFilter = {
    ...(query.status ? { status: query.status } : {}),
    ...(query.paymentMethod ? { paymentMethod: query.paymentMethod } : {}),
    ...(query.destinationCurrency ? { destinationCurrency: query.destinationCurrency } : {}),
    ...(query.reference !== undefined ? { reference: query.reference } : {}),
    ...(query.createdFrom ? { createdFrom: new Date(query.createdFrom) } : {}),
    ...(query.createdTo ? { createdTo: new Date(query.createdTo) } : {}),
  };
  return { first: query.limit, ...(query.cursor !== undefined ? { after: query.cursor } : {}), filter };
}
