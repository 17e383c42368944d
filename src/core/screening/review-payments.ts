import { err, ok, type Result } from '../shared/result';
import { applyMove, type AdvanceDeps } from '../payments/payment-moves';
import type { Payment } from '../payments/payment';
import { hasAddressHit, reviewTransition, type ComplianceReview, type ComplianceReviewStore, type ReviewStatus } from './compliance-review';

/** Closed set of expected failures of a review decision. */
export type ReviewErrorCode = 'validation_error' | 'not_found' | 'invalid_state';

/** What deciding a review needs: the review queue and the payment moves (docs/decisions.md § Screening). */
export type ReviewDeps = Pick<AdvanceDeps, 'uow' | 'payments' | 'clock' | 'ids' | 'onPaymentMoved' | 'environments'> & {
  readonly reviews: ComplianceReviewStore;
  /** Called after a clear commits, e.g. to wake the payout worker. */
  readonly onCleared?: (paymentId: string) => void;
};

/** A review with the payment it holds, as the queue shows it. */
export interface ReviewView extends ComplianceReview {
  readonly paymentStatus: Payment['status'] | null;
}

const MAX_REASON = 500;

function checkReason(reason: string): Result<string, 'validation_error'> {
  const trimmed = reason.trim();
  return trimmed.length === 0 || trimmed.length > MAX_REASON
    ? err('validation_error', `reason is required, 1 to ${MAX_REASON} characters`, { field: 'reason' })
    : ok(trimmed);
}

/** The review queue, oldest first (docs/api.md § Compliance reviews). */
export async function listReviews(deps: Pick<ReviewDeps, 'reviews'>, status: ReviewStatus | undefined, limit: number): Promise<ComplianceReview[]> {
  return deps.reviews.list(status, limit);
}

/**
 * Clears a pending review (docs/decisions.md § Screening): in one transaction the review records
 * who cleared it and why, and the held payment (still `initiated`, never submitted) becomes due,
 * so the payout worker submits it. Errors: `validation_error` (reason), `not_found`,
 * `invalid_state` (already decided, the payment moved, or a hit is an exact listed address: such a
 * review can only be rejected).
 */
export async function clearReview(deps: ReviewDeps, paymentId: string, decidedBy: string, reason: string): Promise<Result<ComplianceReview, ReviewErrorCode>> {
  const why = checkReason(reason);
  if (!why.ok) return why;
  const review = await deps.reviews.find(paymentId);
  if (!review) return err('not_found', `no compliance review for payment ${paymentId}`);
  const to = reviewTransition(review.status, 'clear');
  if (!to.ok) return to;
  if (hasAddressHit(review)) return err('invalid_state', 'an exact match of a listed address cannot be cleared; reject the payment');
  const now = deps.clock.now();
  const cleared = await deps.uow.transact<ComplianceReview, ReviewErrorCode>(async (tx) => {
    const decided = await tx.reviews.decide(paymentId, 'pending', to.value, decidedBy, why.value, now);
    if (!decided) return err('invalid_state', 'the review was decided meanwhile');
    // Guarded by status: a payment that is no longer initiated is not woken.
    const woken = await tx.payments.update(paymentId, 'initiated', { nextActionAt: now, updatedAt: now });
    return woken ? ok(decided) : err('invalid_state', `payment ${paymentId} is no longer initiated`);
  });
  if (cleared.ok) deps.onCleared?.(paymentId);
  return cleared;
}

/**
 * Rejects a review (docs/decisions.md § Screening): records who and why, then fails the payment
 * with `compliance_rejected` through the move every failure before submission takes (its hold is
 * released, docs/decisions.md § Ledger). A reject interrupted between the two steps is completed by
 * asking again. Errors: `validation_error`, `not_found`, `invalid_state` (already cleared, or the
 * payment already moved).
 */
export async function rejectReview(deps: ReviewDeps, paymentId: string, decidedBy: string, reason: string): Promise<Result<ComplianceReview, ReviewErrorCode>> {
  const why = checkReason(reason);
  if (!why.ok) return why;
  const review = await deps.reviews.find(paymentId);
  if (!review) return err('not_found', `no compliance review for payment ${paymentId}`);
  let decided: ComplianceReview = review;
  if (review.status !== 'rejected') {
    const to = reviewTransition(review.status, 'reject');
    if (!to.ok) return to;
    const written = await deps.uow.transact<ComplianceReview, 'invalid_state'>(async (tx) => {
      const row = await tx.reviews.decide(paymentId, 'pending', to.value, decidedBy, why.value, deps.clock.now());
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
