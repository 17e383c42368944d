import { err, ok, type Result } from '../shared/result';
import { applyMove, type AdvanceDeps } from '../payments/payment-moves';
import { toCustomerView } from '../customers/customer';
import { DEPOSIT_MOVES, toDepositView } from '../deposits/deposit';
import type { IdGenerator } from '../shared/clock';
import type { TransactionContext } from '../shared/unit-of-work';
import {
  hasAddressHit, reviewTransition, type ComplianceReview, type ComplianceReviewStore, type ReviewStatus, type ReviewSubject,
} from './compliance-review';

/** Closed set of expected failures of a review decision. */
export type ReviewErrorCode = 'validation_error' | 'not_found' | 'invalid_state';

/** The reason code a customer rejected by a compliance review carries as its `kycReason` (docs/api.md § Customers). */
export const CUSTOMER_COMPLIANCE_REJECTED = 'compliance_rejected';

/** What deciding a review needs: the review queue, the payment moves and the transaction's stores (docs/decisions.md § Screening). */
export type ReviewDeps = Pick<AdvanceDeps, 'uow' | 'payments' | 'clock' | 'ids' | 'onPaymentMoved' | 'environments'> & {
  readonly reviews: ComplianceReviewStore;
  /** Called after a clear commits, e.g. to wake the payout worker (a payment) or the KYC worker (a customer). */
  readonly onCleared?: (kind: ReviewSubject, subjectId: string) => void;
  /** Called after a reject of a customer or deposit commits with its event, e.g. to wake the webhook worker. */
  readonly onRejected?: (kind: ReviewSubject, subjectId: string) => void;
};

const MAX_REASON = 500;

function checkReason(reason: string): Result<string, 'validation_error'> {
  const trimmed = reason.trim();
  return trimmed.length === 0 || trimmed.length > MAX_REASON
    ? err('validation_error', `reason is required, 1 to ${MAX_REASON} characters`, { field: 'reason' })
    : ok(trimmed);
}

/** The one review queue of every kind, oldest first (docs/api.md § Compliance reviews). */
export async function listReviews(deps: Pick<ReviewDeps, 'reviews'>, status: ReviewStatus | undefined, limit: number, kind?: ReviewSubject): Promise<ComplianceReview[]> {
  return deps.reviews.list(status, limit, kind);
}

/** What clearing does to each kind of subject, inside the transaction that records the decision: false when the subject moved. */
const RELEASE: Record<ReviewSubject, (tx: TransactionContext, subjectId: string, now: Date) => Promise<boolean>> = {
  // Guarded by status: a payment that is no longer initiated is not woken; the payout worker submits it.
  payment: async (tx, id, now) => (await tx.payments.update(id, 'initiated', { nextActionAt: now, updatedAt: now })) !== undefined,
  // The KYC check becomes due: the KYC worker asks the provider as for any new customer.
  customer: (tx, id, now) => tx.customers.release(id, now),
  // A deposit is held only for an exact listed address, which is never cleared (hasAddressHit below).
  deposit: async () => false,
};

/**
 * What rejecting does to a customer or a deposit, inside the transaction that records the decision,
 * with the subject's event: false when the subject moved. Payments take their own path (rejectPayment).
 */
const REJECT: Record<Exclude<ReviewSubject, 'payment'>, (tx: TransactionContext, ids: IdGenerator, subjectId: string, at: Date) => Promise<boolean>> = {
  customer: async (tx, ids, id, at) => {
    const customer = await tx.customers.decide(id, 'rejected', CUSTOMER_COMPLIANCE_REJECTED, at);
    if (!customer) return false;
    await tx.outbox.append({ id: ids.uuid(), tenantId: customer.tenantId, type: 'customer.kyc.updated', entityId: id, payload: { ...toCustomerView(customer) }, createdAt: at });
    return true;
  },
  deposit: async (tx, ids, id, at) => {
    const move = DEPOSIT_MOVES.reject;
    const deposit = await tx.deposits.move(id, move.from, { status: move.to });
    if (!deposit) return false;
    // No head at hand here: confirmations are null in the event, as for any deposit no longer counted.
    await tx.outbox.append({ id: ids.uuid(), tenantId: deposit.tenantId, type: move.event, entityId: id, payload: { ...toDepositView(deposit, undefined) }, createdAt: at });
    return true;
  },
};

/**
 * Clears a pending review (docs/decisions.md § Screening): in one transaction the review records
 * who cleared it and why, and its subject proceeds: a payment (still `initiated`) becomes due for
 * the payout worker, a customer (still `pending`) due for its KYC check. Errors:
 * `validation_error` (reason), `not_found`, `invalid_state` (already decided, the subject moved,
 * or a hit is an exact listed address, as every deposit review is: such a review can only be rejected).
 */
export async function clearReview(deps: ReviewDeps, subjectId: string, decidedBy: string, reason: string): Promise<Result<ComplianceReview, ReviewErrorCode>> {
  const why = checkReason(reason);
  if (!why.ok) return why;
  const review = await deps.reviews.find(subjectId);
  if (!review) return err('not_found', `no compliance review for ${subjectId}`);
  const to = reviewTransition(review.status, 'clear');
  if (!to.ok) return to;
  if (hasAddressHit(review)) return err('invalid_state', `an exact match of a listed address cannot be cleared; reject the ${review.subjectKind}`);
  const now = deps.clock.now();
  const cleared = await deps.uow.transact<ComplianceReview, ReviewErrorCode>(async (tx) => {
    const decided = await tx.reviews.decide(subjectId, 'pending', to.value, decidedBy, why.value, now);
    if (!decided) return err('invalid_state', 'the review was decided meanwhile');
    return (await RELEASE[review.subjectKind](tx, subjectId, now)) ? ok(decided) : err('invalid_state', `${subjectId} is no longer held`);
  });
  if (cleared.ok) deps.onCleared?.(review.subjectKind, subjectId);
  return cleared;
}

/**
 * Rejects a review (docs/decisions.md § Screening), recording who and why: a payment fails with
 * `compliance_rejected` through the move every failure before submission takes (its hold is
 * released; a reject interrupted between the two steps is completed by asking again); a customer
 * becomes `rejected` with `kycReason` `compliance_rejected` and its `customer.kyc.updated` event, in
 * the review's transaction; a deposit becomes `rejected` (never credited; the funds stay in our
 * deposit address for the operator's procedure) with its `deposit.rejected` event. Errors:
 * `validation_error`, `not_found`, `invalid_state` (already cleared, or the subject already moved).
 */
export async function rejectReview(deps: ReviewDeps, subjectId: string, decidedBy: string, reason: string): Promise<Result<ComplianceReview, ReviewErrorCode>> {
  const why = checkReason(reason);
  if (!why.ok) return why;
  const review = await deps.reviews.find(subjectId);
  if (!review) return err('not_found', `no compliance review for ${subjectId}`);
  const kind = review.subjectKind;
  if (kind === 'payment') return rejectPayment(deps, review, decidedBy, why.value);
  const to = reviewTransition(review.status, 'reject');
  if (!to.ok) return to;
  const rejected = await deps.uow.transact<ComplianceReview, 'invalid_state'>(async (tx) => {
    const at = deps.clock.now();
    const decided = await tx.reviews.decide(subjectId, 'pending', to.value, decidedBy, why.value, at);
    if (!decided) return err('invalid_state', 'the review was decided meanwhile');
    const applied = await REJECT[kind](tx, deps.ids, subjectId, at);
    return applied ? ok(decided) : err('invalid_state', `${subjectId} is no longer held`);
  });
  if (rejected.ok) deps.onRejected?.(review.subjectKind, subjectId);
  return rejected;
}

async function rejectPayment(deps: ReviewDeps, review: ComplianceReview, decidedBy: string, reason: string): Promise<Result<ComplianceReview, ReviewErrorCode>> {
  const paymentId = review.subjectId;
  let decided: ComplianceReview = review;
  if (review.status !== 'rejected') {
    const to = reviewTransition(review.status, 'reject');
    if (!to.ok) return to;
    const written = await deps.uow.transact<ComplianceReview, 'invalid_state'>(async (tx) => {
      const row = await tx.reviews.decide(paymentId, 'pending', to.value, decidedBy, reason, deps.clock.now());
      return row ? ok(row) : err('invalid_state', 'the review was decided meanwhile');
    });
    if (!written.ok) return written;
    decided = written.value;
  }
  const moved = await applyMove(deps, paymentId, 'reject', {
    failure: { code: 'compliance_rejected', reason: 'Refused by compliance review (sanctions screening)' },
  });
  if (!moved.ok && moved.code === 'not_found') return err('not_found', moved.message);
  if (!moved.ok && review.status === 'rejected') return err('invalid_state', 'the review is already rejected and its payment failed');
  if (!moved.ok) return err('invalid_state', moved.message);
  return ok(decided);
}
