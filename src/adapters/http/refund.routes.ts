import { z } from 'zod';
import type { AdminApplication } from '../../core/admin/admin-application';
import { BLOCKCHAINS } from '../../core/catalog/catalog';
import { REFUND_STATUSES, type RefundStatus } from '../../core/refunds/onchain-refund';
import type { MarkSentErrorCode, RetryRefundErrorCode } from '../../core/refunds/manage-refunds';
import { REFUND_FAILURE_REASONS } from '../../core/refunds/refund-refusal';
import { STABLECOINS } from '../../core/shared/money';
import type { ShapeACode } from '../contract/error-codes';
import { AUTH_ERRORS, DecimalString, ErrorA } from './common.schema';
import { sendShapeA } from './http-errors';
import { defineRoute, type RouteSpec } from './route';

/** Every failure code of recording a refund's transaction mapped to shape A; exhaustive by type. */
const MARK_SENT_ERRORS: Record<MarkSentErrorCode, ShapeACode> = {
  validation_error: 'validation_error', not_found: 'not_found', invalid_state: 'invalid_state', tx_hash_is_deposit: 'tx_hash_is_deposit',
  tx_not_final: 'tx_not_final', tx_does_not_pay_refund: 'tx_does_not_pay_refund',
};

/** Every failure code of retrying a refund mapped to shape A; exhaustive by type. */
const RETRY_ERRORS: Record<RetryRefundErrorCode, ShapeACode> = { not_found: 'not_found', invalid_state: 'invalid_state' };

/** Who made an operator's move, for the refund's audit record: the admin key's id. */
const actorOf = (req: { principal?: { keyId: string } }): string => req.principal?.keyId ?? 'unknown';

const RefundView = z.object({
  refundId: z.string().meta({ description: 'Refund id', example: 'rfd_01JD5A2C4E6G8J0K2M4P6R8T0V' }),
  paymentId: z.string().meta({ description: 'The payment refunded (pay_...)', example: 'pay_01JD4ZQ8W0Y8M2V6N3C5B7K9TQ' }),
  tenantId: z.string().meta({ description: 'The tenant owed the refund', example: 'ten_01JD4Y9R3T6V8X0Z2B4D6F8H0K' }),
  amount: DecimalString.meta({ description: "The payment's whole stablecoin amount, scale 6", example: '12.115416' }),
  currency: z.enum(STABLECOINS).meta({ description: 'The stablecoin to send back', example: 'USDC' }),
  blockchain: z.enum(BLOCKCHAINS).meta({ description: 'The chain to send it on', example: 'SOLANA' }),
  refundAddress: z.string().meta({ description: "The payment's refundAddress: where the stablecoin goes back", example: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin' }),
  status: z.enum(REFUND_STATUSES).meta({
    description: 'pending (owed, nothing onchain yet) → broadcast (sent from the hot wallet) → confirmed (final onchain); failed: needs an operator (retry it); '
      + 'sent: an operator recorded a hand-sent transaction (docs/decisions.md § Refunds)',
    example: 'pending',
  }),
  txHash: z.string().nullable().meta({ description: 'The onchain transaction, canonical form, once known (broadcast, confirmed, sent; kept on a failed one when it landed); null while pending', example: null }),
  createdAt: z.iso.datetime().meta({ description: 'When the refund became owed', example: '2026-11-23T09:30:00.000Z' }),
  sentAt: z.iso.datetime().nullable().meta({ description: 'When it was final onchain (confirmed) or an operator recorded it sent; null before', example: null }),
  failureReason: z.enum(REFUND_FAILURE_REASONS).nullable().meta({
    description: 'Why a failed refund needs an operator: invalid_address (not an address of its chain), own_address (the hot wallet itself), '
      + 'amount_not_representable (the token cannot hold the amount exactly), reverted (its transaction landed and reverted); null in any other status '
      + '(docs/decisions.md § Refunds: refusals)',
    example: null,
  }),
}).meta({ id: 'OnchainRefund' });

/** A retried refund as POST /v1/admin/refunds/{refundId}/retry answers it. */
const RETRIED_EXAMPLE = {
  refundId: 'rfd_01JD5A2C4E6G8J0K2M4P6R8T0V', paymentId: 'pay_01JD4ZQ8W0Y8M2V6N3C5B7K9TQ', tenantId: 'ten_01JD4Y9R3T6V8X0Z2B4D6F8H0K',
  amount: '12.115416', currency: 'USDC', blockchain: 'SOLANA', refundAddress: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin', status: 'pending',
  txHash: null, createdAt: '2026-11-23T09:30:00.000Z', sentAt: null, failureReason: null,
} as const;

/** Query of GET /v1/admin/refunds; the CLI's `refunds:list` parses its flags with it too. */
const RefundListQuery = z.strictObject({
  status: z.enum(REFUND_STATUSES).optional().meta({ description: 'Only refunds in this status; all when absent' }),
  limit: z.coerce.number().int().min(1).max(500).default(100).meta({ description: 'Most refunds to return, 1 to 500', example: 100 }),
});
const RefundParams = z.object({ refundId: z.string().max(64).meta({ description: 'Refund id (rfd_...)', example: 'rfd_01JD5A2C4E6G8J0K2M4P6R8T0V' }) });

/**
 * Admin routes of onchain refunds of live payments (docs/decisions.md § Ledger): the list operators
 * work from, and recording the transaction that sent a refund. Every one needs an admin key.
 */
export function refundRoutes(admin: AdminApplication): RouteSpec<any, any, any>[] {
  const common = { tags: ['Admin'], auth: 'admin' } as const;
  return [
    defineRoute<undefined, { status?: RefundStatus; limit: number }>({
      ...common, method: 'get', path: '/v1/admin/refunds', operationId: 'listRefunds',
      summary: 'Onchain refunds of live payments that failed or were reversed after acceptance, oldest first',
      description: 'Platform admin key. A live payment that fails or is reversed after acceptance owes its amount back onchain to the '
        + "tenant's refund address; each such refund is pending until the hot wallet sends it or an operator records the transaction that sent it (docs/decisions.md § Refunds). "
        + 'status=failed is the operators\' queue: refunds that need a decision (retry, or record a hand-sent transaction).',
      query: RefundListQuery,
      responses: { '200': { description: 'Refunds', schema: z.array(RefundView) }, ...AUTH_ERRORS },
      handler: async (req, res) => void res.json(await admin.listRefunds(req.query.status, req.query.limit)),
    }),
    defineRoute<{ txHash: string }, undefined, { refundId: string }>({
      ...common, method: 'post', path: '/v1/admin/refunds/{refundId}/sent', operationId: 'markRefundSent', role: 'operator',
      summary: "Record the onchain transaction that sent a refund; its amount leaves the ledger's refund_pending account",
      description: 'Platform admin key. Marks a pending refund sent with the hash of the onchain transaction that paid it (validated for the '
        + "refund's chain); recording the same hash again answers the refund unchanged, another hash for a sent refund is refused, "
        + 'and so is the hash of a recorded inbound deposit (tx_hash_is_deposit). When the chain RPC endpoints are configured, the '
        + 'transaction is looked up onchain first: it must be final (tx_not_final otherwise, also when not found yet) and its transfers of '
        + "the refund's token to the refundAddress must cover the amount, with any other refund recorded with it (tx_does_not_pay_refund).",
      params: RefundParams,
      body: z.strictObject({
        txHash: z.string().min(1).max(90).meta({
          description: "On the refund's chain: BSC 0x and 64 hex digits (stored lower-case), SOLANA the base58 signature (64 bytes). The same hash again answers the refund as it is.",
          example: '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW',
        }),
      }),
      responses: {
        '200': { description: 'The refund, sent', schema: RefundView }, ...AUTH_ERRORS,
        '404': { description: 'not_found', schema: ErrorA },
        '409': {
          description: 'invalid_state: already sent in another transaction; tx_hash_is_deposit: the hash is a recorded inbound deposit, not a refund sent; '
            + 'tx_not_final: not found onchain yet, or above the finalized height (try again once final)',
          schema: ErrorA,
        },
        '422': { description: "tx_does_not_pay_refund: the transaction failed, or its transfers of the refund's token to the refundAddress fall short", schema: ErrorA },
      },
      handler: async (req, res) => {
        const result = await admin.markRefundSent(req.params.refundId, req.body.txHash, actorOf(req));
        if (!result.ok) return sendShapeA(res, MARK_SENT_ERRORS[result.code], result.message);
        res.json(result.value);
      },
    }),
    defineRoute<undefined, undefined, { refundId: string }>({
      ...common, method: 'post', path: '/v1/admin/refunds/{refundId}/retry', operationId: 'retryRefund', role: 'operator',
      summary: 'Send a failed refund back to the queue: it becomes pending and the hot wallet sends it again (audited)',
      description: 'Platform admin key. Moves a failed refund to pending with no transaction (docs/decisions.md § Refunds: reads and operators); the refunds worker '
        + 'signs a new attempt on its next pass. The ledger does not move: the amount stays in refund_pending until a transaction is final. '
        + 'Kept with the admin key that retried it (the audit record). A refund that is not failed is refused with 409 invalid_state.',
      params: RefundParams,
      responses: {
        '200': { description: 'The refund, pending again', schema: RefundView, example: RETRIED_EXAMPLE }, ...AUTH_ERRORS,
        '404': { description: 'not_found', schema: ErrorA },
        '409': { description: 'invalid_state: the refund is not failed (the message says what it is)', schema: ErrorA },
      },
      handler: async (req, res) => {
        const result = await admin.retryRefund(req.params.refundId, actorOf(req));
        if (!result.ok) return sendShapeA(res, RETRY_ERRORS[result.code], result.message);
        res.json(result.value);
      },
    }),
  ];
}
