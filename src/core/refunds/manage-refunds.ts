import type { Clock } from '../shared/clock';
import { formatAmount } from '../shared/money';
import { err, ok, type Result } from '../shared/result';
import type { UnitOfWork } from '../shared/unit-of-work';
import { canonicalTxHash } from '../ledger/tx-hash';
import type { Blockchain } from '../catalog/catalog';
import { judgeHandSent, type CheckedChain, type HandSentRefusal, type TransactionTransfers } from './hand-sent-check';
import type { OnchainRefund, RefundReader, RefundStatus } from './onchain-refund';
import type { RefundFailureReason } from './refund-refusal';
import { transition } from './refund-states';

/** A refund as admins see it: times ISO 8601 UTC, `amount` a decimal string at scale 6. */
export interface RefundView {
  readonly refundId: string;
  readonly paymentId: string;
  readonly tenantId: string;
  readonly amount: string;
  readonly currency: OnchainRefund['currency'];
  readonly blockchain: OnchainRefund['blockchain'];
  readonly refundAddress: string;
  readonly status: RefundStatus;
  readonly txHash: string | null;
  readonly createdAt: string;
  readonly sentAt: string | null;
  /** Why a `failed` refund needs an operator (docs/decisions.md § Refunds: refusals); null in any other status. */
  readonly failureReason: RefundFailureReason | null;
}

/** Closed set of expected failures of recording a refund's transaction. */
export type MarkSentErrorCode = 'validation_error' | 'not_found' | 'invalid_state' | 'tx_hash_is_deposit' | HandSentRefusal;

/** Closed set of expected failures of retrying a refund: unknown, or not `failed`. */
export type RetryRefundErrorCode = 'not_found' | 'invalid_state';

/** Ports of the refund use cases. */
export interface RefundDeps {
  readonly uow: UnitOfWork;
  readonly refunds: RefundReader;
  readonly clock: Clock;
  /**
   * The chain a hand-sent transaction is checked on (docs/decisions.md § Refunds: reads and
   * operators): its transaction reader and tokens when the chain's RPC endpoints are configured,
   * else undefined (the transaction is then recorded unchecked).
   */
  readonly checkedChain?: (chain: Blockchain) => CheckedChain | undefined;
}

/** The admin view of `refund`. Pure. */
export function toRefundView(refund: OnchainRefund): RefundView {
  return {
    refundId: refund.id, paymentId: refund.paymentId, tenantId: refund.tenantId, amount: formatAmount(refund.amount, refund.currency),
    currency: refund.currency, blockchain: refund.blockchain, refundAddress: refund.refundAddress, status: refund.status, txHash: refund.txHash,
    createdAt: refund.createdAt.toISOString(), sentAt: refund.sentAt?.toISOString() ?? null, failureReason: refund.failureReason,
  };
}

/** Refunds in `status` (all when undefined), oldest first, at most `limit`. */
export async function listRefunds(deps: RefundDeps, status: RefundStatus | undefined, limit: number): Promise<RefundView[]> {
  return (await deps.refunds.list(status, limit)).map(toRefundView);
}

/**
 * Records the onchain transaction that returned a live payment's funds (docs/decisions.md
 * § Ledger, § Refunds: reads and operators): the refund becomes `sent` and, in the same
 * transaction, its amount leaves `refund_pending` for `refunded`. The hash is checked and
 * canonicalised for the refund's chain. Recording the same hash again answers the refund as it is
 * (a retried command); another hash on a sent refund is refused, and so is a refund the hot wallet
 * is sending or sent (only `pending` or `failed` may be recorded by hand). A hash recorded as an
 * inbound deposit (of any tenant, on the refund's chain) is refused: a refund goes out, so the
 * transaction that brought money in cannot be it, and recording it would release refund_pending
 * with nothing sent. When the chain can be read (`checkedChain`), the transaction is then looked
 * up onchain and must be final and pay the refund (`judgeHandSent`); the read happens under the
 * refund's row lock, so two operators cannot count one transaction twice. The move is kept with
 * `actor` (the admin key id, or `cli:<user>`) in the refund's audit record. Errors:
 * `validation_error` (txHash), `not_found`, `invalid_state` (sent with another hash),
 * `tx_hash_is_deposit`, `tx_not_final` (not found or above the finalized height: try again once
 * final), `tx_does_not_pay_refund` (failed, or its transfers of the token to `refundAddress` fall short).
 */
export async function markRefundSent(deps: RefundDeps, refundId: string, txHash: string, actor: string): Promise<Result<RefundView, MarkSentErrorCode>> {
  return deps.uow.transact<RefundView, MarkSentErrorCode>(async (tx) => {
    const refund = await tx.refunds.lockById(refundId);
    if (!refund) return err('not_found', `Refund ${refundId} not found`);
    const hash = canonicalTxHash(refund.blockchain, txHash);
    if (!hash.ok) return hash;
    if (refund.status === 'sent') {
      return refund.txHash === hash.value
        ? ok(toRefundView(refund))
        : err('invalid_state', `Refund ${refundId} was already sent in transaction ${refund.txHash}`);
    }
    if (!transition(refund.status, 'record_sent')) {
      return err('invalid_state', `Refund ${refundId} is ${refund.status}: it is being sent from the hot wallet or already was`);
    }
    if (await tx.refunds.isDepositTransaction(refund.blockchain, hash.value)) {
      return err('tx_hash_is_deposit', `Transaction ${hash.value} on ${refund.blockchain} is a recorded deposit, not a refund sent`);
    }
    const chain = deps.checkedChain?.(refund.blockchain);
    if (chain) {
      // Heights after the transaction: a block final before the read cannot become unfinal.
      const seen: TransactionTransfers = await chain.reader.transfersIn(hash.value, refund.refundAddress);
      const heights = await chain.reader.heights();
      const others = await tx.refunds.amountsSentIn(refund.blockchain, hash.value, refund.refundAddress, refund.id);
      const verdict = judgeHandSent(refund, hash.value, seen, heights, chain.tokens, others);
      if (!verdict.ok) return verdict;
    }
    const at = deps.clock.now();
    // Read before the write: a store may hand back the same object, updated (an ORM's identity map).
    const from = refund.status;
    const sent = await tx.refunds.markSent(refundId, hash.value, at);
    await tx.refunds.recordAction({ refundId, action: 'record_sent', actor, from, to: sent.status, txHash: hash.value, at });
    // Posted last: it locks the tenant's balance rows until commit.
    const posted = await tx.ledger.post({
      tenantId: refund.tenantId, currency: refund.currency, amount: refund.amount, from: 'refund_pending', to: 'refunded', kind: 'refund_sent',
      paymentId: refund.paymentId, at,
    });
    if (posted !== 'posted') throw new Error(`ledger refused the refund of ${refund.paymentId}: ${posted}`);
    return ok(toRefundView(sent));
  });
}

/**
 * Sends a `failed` refund back to the queue (docs/decisions.md § Refunds: reads and operators; the move
 * `retry`): it becomes `pending` with no transaction, and the refunds worker signs a new attempt
 * on its next pass. The move is kept with `actor` (admin key id or `cli:<user>`) in the refund's
 * audit record, in the same transaction. The ledger does not move: the amount stays in
 * refund_pending until a transaction is final. Errors: `not_found`, `invalid_state` (the refund is
 * not `failed`: the message says what it is).
 */
export async function retryRefund(deps: RefundDeps, refundId: string, actor: string): Promise<Result<RefundView, RetryRefundErrorCode>> {
  return deps.uow.transact<RefundView, RetryRefundErrorCode>(async (tx) => {
    const refund = await tx.refunds.lockById(refundId);
    if (!refund) return err('not_found', `Refund ${refundId} not found`);
    const to = transition(refund.status, 'retry');
    if (!to) return err('invalid_state', `Refund ${refundId} is ${refund.status}: only a failed refund can be retried`);
    const at = deps.clock.now();
    // Read before the write: a store may hand back the same object, updated (an ORM's identity map).
    const from = refund.status;
    const moved = await tx.refunds.setStatus(refundId, from, to, null, null);
    await tx.refunds.recordAction({ refundId, action: 'retry', actor, from, to, txHash: null, at });
    return ok(toRefundView(moved));
  });
}
