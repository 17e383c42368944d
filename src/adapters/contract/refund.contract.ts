import { z } from 'zod';
import { BLOCKCHAINS } from '../../core/catalog/catalog';
import { REFUND_STATUSES } from '../../core/refunds/onchain-refund';
import type { TenantRefundQuery } from '../../core/refunds/refund-reads';
import { STABLECOINS } from '../../core/shared/money';
import { DecimalString } from './amount.schema';
import { PageQuery } from './page.schema';

/** A refund as the examples show it: a failed SOLANA payout's USDC, confirmed onchain. */
const EXAMPLE_REFUND = {
  id: 'rfd_01JD5A2C4E6G8J0K2M4P6R8T0V', paymentId: 'pay_01JD4ZQ8W0Y8M2V6N3C5B7K9TQ', amount: '12.115416', currency: 'USDC', blockchain: 'SOLANA',
  refundAddress: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin', status: 'confirmed',
  txHash: '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW',
  createdAt: '2026-11-23T09:45:12.031Z', sentAt: '2026-11-23T09:45:31.870Z',
} as const;

/**
 * A refund as its issuer sees it (OpenAPI listTenantRefunds; the `refund` of a payment read;
 * GraphQL `Refund`), each field described once (docs/decisions.md § Refunds).
 */
export const RefundResponse = z
  .object({
    id: z.string().meta({ description: 'Refund id: rfd_ and a ULID', example: EXAMPLE_REFUND.id }),
    paymentId: z.string().meta({ description: 'The payment it returns the funds of (pay_...)', example: EXAMPLE_REFUND.paymentId }),
    amount: DecimalString.meta({ description: "The payment's whole amountStablecoin, 6 decimal places: the network fee is ours, never deducted", example: EXAMPLE_REFUND.amount }),
    currency: z.enum(STABLECOINS).meta({ description: 'The stablecoin sent back', example: EXAMPLE_REFUND.currency }),
    blockchain: z.enum(BLOCKCHAINS).meta({ description: 'The chain it is sent on: the payment\'s', example: EXAMPLE_REFUND.blockchain }),
    refundAddress: z.string().meta({ description: "Where it goes: the payment's refundAddress", example: EXAMPLE_REFUND.refundAddress }),
    status: z.enum(REFUND_STATUSES).meta({
      description: 'pending (owed, not sent yet) → broadcast (sent, waiting for finality) → confirmed (final onchain); failed: an operator is on it '
        + '(it goes back to pending when retried); sent: an operator sent it by hand and recorded the transaction. Final: confirmed, sent',
      example: EXAMPLE_REFUND.status,
    }),
    txHash: z.string().nullable().meta({
      description: 'The transaction hash (BSC, 0x and 64 lower-case hex) or signature (SOLANA) once known: from broadcast on (it may change while broadcast, '
        + 'when a stuck transaction is replaced); null while pending',
      example: EXAMPLE_REFUND.txHash,
    }),
    createdAt: z.iso.datetime().meta({ description: 'When the refund became owed (ISO 8601 UTC)', example: EXAMPLE_REFUND.createdAt }),
    sentAt: z.iso.datetime().nullable().meta({ description: 'When it was final onchain (confirmed) or recorded sent; null before', example: EXAMPLE_REFUND.sentAt }),
  })
  .meta({
    id: 'Refund',
    description: 'The stablecoin of a live payout that failed or was reversed after acceptance, sent back onchain to its refundAddress',
    example: EXAMPLE_REFUND,
  });

/**
 * Statuses to list: repeated (`status=pending&status=failed`) or comma-separated
 * (`status=pending,failed`), each one of REFUND_STATUSES, as the payment list takes them.
 */
const StatusFilter = z
  .preprocess(
    (raw) => (typeof raw === 'string' ? raw.split(',') : Array.isArray(raw) ? raw.flatMap((v) => (typeof v === 'string' ? v.split(',') : [v])) : raw),
    z.array(z.enum(REFUND_STATUSES)).min(1).max(REFUND_STATUSES.length),
  )
  .optional()
  .meta({ description: 'Only refunds in one of these statuses (repeat the parameter or separate values with commas); all when absent' });

/** Query of GET /v1/refunds (OpenAPI listTenantRefunds): `limit` and `cursor` of every list, and `status`. */
export const RefundListQuerySchema = PageQuery.extend({ status: StatusFilter });

/** The REST query as the core's list query. */
export function toRefundListQuery(query: z.output<typeof RefundListQuerySchema>): TenantRefundQuery {
  return { limit: query.limit, ...(query.cursor !== undefined ? { cursor: query.cursor } : {}), ...(query.status ? { status: query.status } : {}) };
}
