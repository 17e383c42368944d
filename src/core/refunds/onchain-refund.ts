import type { Blockchain } from '../catalog/catalog';
import type { Payment } from '../payments/payment';
import type { Stablecoin } from '../shared/money';
import type { RefundAttempt } from './refund-attempt';
import type { RefundFailureReason } from './refund-refusal';
import type { RefundStatus } from './refund-states';

export { REFUND_STATUSES, MANUAL_REFUND_STATUSES, type RefundStatus } from './refund-states';

/**
 * What a live payment owes its issuer after it failed or was reversed past acceptance
 * (docs/decisions.md § Ledger): `amount` of `currency` (decimal string, scale 6: the payment's
 * whole `amountStablecoin`) to `refundAddress` on `blockchain`. Created `pending` with the move;
 * `sent` once an operator records `txHash` (canonical form), at `sentAt`. With a hot wallet
 * configured (docs/decisions.md § Refunds) it goes `broadcast` (`txHash` the attempt's current
 * hash) and `confirmed` (`txHash` the hash that landed, `sentAt` when it was final) instead.
 * `failureReason` says why it is `failed` (null in any other status; docs/decisions.md § Refunds: refusals).
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
  readonly failureReason: RefundFailureReason | null;
}

/** A new pending refund of everything `payment` holds in transit. Pure. */
export function refundOf(payment: Payment, id: string, at: Date): OnchainRefund {
  return {
    id, paymentId: payment.id, tenantId: payment.tenantId, amount: payment.amountStablecoin, currency: payment.sourceCurrency,
    blockchain: payment.blockchain, refundAddress: payment.refundAddress, status: 'pending', txHash: null, createdAt: at, sentAt: null,
    failureReason: null,
  };
}

/**
 * An operator's action on a refund, kept for audit (docs/decisions.md § Refunds: reads and operators): who
 * (`actor`: the admin key id `key_...`, or `cli:<user>` for the operator CLI), which move
 * (`retry`: failed → pending; `record_sent`: pending → sent with `txHash`), and when.
 */
export interface RefundAction {
  readonly refundId: string;
  readonly action: 'retry' | 'record_sent';
  readonly actor: string;
  readonly from: RefundStatus;
  readonly to: RefundStatus;
  readonly txHash: string | null;
  readonly at: Date;
}

/** Port: onchain refunds inside the caller's transaction. */
export interface RefundStore {
  /** Writes a new refund; at most one per payment (a second is a bug: it throws). */
  create(refund: OnchainRefund): Promise<void>;
  /** The refund, locked until commit; undefined when there is none. */
  lockById(refundId: string): Promise<OnchainRefund | undefined>;
  /** Marks a pending or failed refund sent with `txHash` at `at` (its failure reason cleared); the refund as it now is. */
  markSent(refundId: string, txHash: string, at: Date): Promise<OnchainRefund>;
  /**
   * Whether an inbound deposit of any tenant is recorded under `blockchain` and `txHash`
   * (canonical form, see `canonicalTxHash`), whichever of the transaction's transfers it was.
   */
  isDepositTransaction(blockchain: Blockchain, txHash: string): Promise<boolean>;
  /**
   * The amounts (decimal strings, scale 6) of the refunds other than `exceptRefundId` already
   * recorded as paid by transaction `txHash` on `blockchain` to `refundAddress` (BSC addresses
   * compared in any case), whatever their status now.
   */
  amountsSentIn(blockchain: Blockchain, txHash: string, refundAddress: string, exceptRefundId: string): Promise<string[]>;
  /**
   * Moves a refund from `from` to `to` (a move `transition()` allowed), setting `txHash`,
   * `sentAt` and `failureReason` as given (`failureReason` only with `to` = `failed`; omitted, it
   * is cleared); the refund as it now is. Throws when its status is no longer `from`.
   */
  setStatus(
    refundId: string, from: RefundStatus, to: RefundStatus, txHash: string | null, sentAt: Date | null, failureReason?: RefundFailureReason | null,
  ): Promise<OnchainRefund>;
  /** The oldest `pending` refund on `blockchain` with no attempt in `signed` or `broadcast`, locked until commit (skipping locked rows). */
  nextPending(blockchain: Blockchain): Promise<OnchainRefund | undefined>;
  /** The attempt of `wallet` on `blockchain` still in `signed` or `broadcast` (one at a time per wallet); undefined when none. */
  openAttempt(blockchain: Blockchain, wallet: string): Promise<RefundAttempt | undefined>;
  /** The highest nonce any attempt of `wallet` on `blockchain` ever used; null when none (or on Solana). */
  lastNonce(blockchain: Blockchain, wallet: string): Promise<bigint | null>;
  /** Appends `action` to the refund's audit record (docs/decisions.md § Refunds: reads and operators); never changes one. */
  recordAction(action: RefundAction): Promise<void>;
  /** Writes a new attempt. PostgreSQL refuses a second attempt for the same (chain, wallet, nonce) or hash: that throws. */
  createAttempt(attempt: RefundAttempt): Promise<void>;
  /** Replaces the attempt's stored fields with `attempt`'s (same id); throws when it is gone. */
  updateAttempt(attempt: RefundAttempt): Promise<void>;
}

/** Port: onchain refund reads outside transactions. */
export interface RefundReader {
  /** Refunds in `status` (any when undefined), oldest first, at most `limit`. */
  list(status: RefundStatus | undefined, limit: number): Promise<OnchainRefund[]>;
  /** Pending refunds per stablecoin: how many, and their total (decimal string, scale 6). */
  pendingTotals(): Promise<{ currency: Stablecoin; count: number; amount: string }[]>;
}
