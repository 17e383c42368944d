import type { OutboxEvent } from '../events/outbox-event';
import type { OnchainRefund } from './onchain-refund';
import { toIssuerRefundView, type IssuerRefundView } from './refund-reads';
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
 * A refund as its webhooks carry it (the event's `data`): the issuer's view of it
 * (`IssuerRefundView`, refund-reads.ts), the same fields `GET /v1/refunds` answers. Never the
 * tenant id: the tenant is the one it is sent to.
 */
export type RefundEventData = IssuerRefundView;

/** The `data` of a refund webhook for `refund` as it now is. Pure. */
export const refundEventData: (refund: OnchainRefund) => RefundEventData = toIssuerRefundView;

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
