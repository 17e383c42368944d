import type { OutboxEvent } from '../events/outbox-event';
import { formatAmount } from '../shared/money';
import type { OnchainRefund } from './onchain-refund';
import type { RefundStatus } from './refund-states';

/**
 * The refund webhooks (docs/decisions.md § Refunds, § Webhooks): `refund.pending` when a live
 * payment's refund becomes owed, `refund.confirmed` when its transaction is final onchain (the
 * ledger moved refund_pending → refunded), `refund.failed` when it needs an operator.
 */
export const REFUND_EVENT_TYPES = ['refund.pending', 'refund.confirmed', 'refund.failed'] as const;
export type RefundEventType = (typeof REFUND_EVENT_TYPES)[number];

/** The event a refund's new status sends, if any: only these three statuses are webhooks. */
const EVENT_OF_STATUS: Partial<Record<RefundStatus, RefundEventType>> = {
  pending: 'refund.pending', confirmed: 'refund.confirmed', failed: 'refund.failed',
};

/**
 * A refund as its webhooks carry it (the event's `data`): `id` (`rfd_` + ULID), `paymentId`,
 * `amount` (decimal string, scale 6), `currency`, `blockchain`, `refundAddress`, `status`, `txHash`
 * (canonical hash or signature; null while nothing was broadcast), `createdAt` and `sentAt`
 * (ISO 8601 UTC; `sentAt` null until confirmed or recorded sent). Never the tenant id: the
 * tenant is the one it is sent to. Pure.
 */
export interface RefundEventData {
  readonly id: string;
  readonly paymentId: string;
  readonly amount: string;
  readonly currency: OnchainRefund['currency'];
  readonly blockchain: OnchainRefund['blockchain'];
  readonly refundAddress: string;
  readonly status: RefundStatus;
  readonly txHash: string | null;
  readonly createdAt: string;
  readonly sentAt: string | null;
}

/** The `data` of a refund webhook for `refund` as it now is. Pure. */
export function refundEventData(refund: OnchainRefund): RefundEventData {
  return {
    id: refund.id, paymentId: refund.paymentId, amount: formatAmount(refund.amount, refund.currency), currency: refund.currency,
    blockchain: refund.blockchain, refundAddress: refund.refundAddress, status: refund.status, txHash: refund.txHash,
    createdAt: refund.createdAt.toISOString(), sentAt: refund.sentAt?.toISOString() ?? null,
  };
}

/**
 * The outbox event `refund`'s status sends (written in the transaction that moved it), or
 * undefined when that status sends none (`broadcast`, `sent`). Its entity is the refund, so a
 * refund's events are delivered in order. `id` is the event's uuid, `at` when it happened. Pure.
 */
export function refundEvent(refund: OnchainRefund, id: string, at: Date): OutboxEvent | undefined {
  const type = EVENT_OF_STATUS[refund.status];
  if (!type) return undefined;
  return { id, tenantId: refund.tenantId, type, entityId: refund.id, payload: { ...refundEventData(refund) }, createdAt: at };
}
