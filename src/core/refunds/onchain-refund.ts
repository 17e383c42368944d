import type { Blockchain } from '../catalog/catalog';
import type { Payment } from '../payments/payment';
import type { Stablecoin } from '../shared/money';

/** States of an onchain refund (docs/decisions.md § Ledger): `pending` until an operator records the transaction. */
export const REFUND_STATUSES = ['pending', 'sent'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/**
 * What a live payment owes its issuer after it failed or was reversed past acceptance
 * (docs/decisions.md § Ledger): `amount` of `currency` (decimal string, scale 6: the payment's
 * whole `amountStablecoin`) to `refundAddress` on `blockchain`. Created `pending` with the move;
 * `sent` once an operator records `txHash` (canonical form), at `sentAt`.
 */
export interface OnchainRefund {
  /** `rfd_` + ULID. */
  readonly id: string;
  readonly paymentId: string;
  readonly tenantId: string;
  readonly amount: string;
  readonly currency: Stablecoin;
  readonly blockchain: Blockchain;
  readonly refundAddress: string;
  readonly status: RefundStatus;
  readonly txHash: string | null;
  readonly createdAt: Date;
  readonly sentAt: Date | null;
}

/** A new pending refund of everything `payment` holds in transit. Pure. */
export function refundOf(payment: Payment, id: string, at: Date): OnchainRefund {
  return {
    id, paymentId: payment.id, tenantId: payment.tenantId, amount: payment.amountStablecoin, currency: payment.sourceCurrency,
    blockchain: payment.blockchain, refundAddress: payment.refundAddress, status: 'pending', txHash: null, createdAt: at, sentAt: null,
  };
}

/** Port: onchain refunds inside the caller's transaction. */
export interface RefundStore {
  /** Writes a new refund; at most one per payment (a second is a bug: it throws). */
  create(refund: OnchainRefund): Promise<void>;
  /** The refund, locked until commit; undefined when there is none. */
  lockById(refundId: string): Promise<OnchainRefund | undefined>;
  /** Marks a pending refund sent with `txHash` at `at`; the refund as it now is. */
  markSent(refundId: string, txHash: string, at: Date): Promise<OnchainRefund>;
  /**
   * Whether an inbound deposit of any tenant is recorded under `blockchain` and `txHash`
   * (canonical form, see `canonicalTxHash`), whichever of the transaction's transfers it was.
   */
  isDepositTransaction(blockchain: Blockchain, txHash: string): Promise<boolean>;
}

/** Port: onchain refund reads outside transactions. */
export interface RefundReader {
  /** Refunds in `status` (any when undefined), oldest first, at most `limit`. */
  list(status: RefundStatus | undefined, limit: number): Promise<OnchainRefund[]>;
  /** Pending refunds per stablecoin: how many, and their total (decimal string, scale 6). */
  pendingTotals(): Promise<{ currency: Stablecoin; count: number; amount: string }[]>;
}
