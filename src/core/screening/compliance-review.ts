import { err, ok, type Result } from '../shared/result';
import type { ScreeningHit } from './sanctions-screen';

/** States of a compliance review of a held payment (docs/decisions.md § Screening). */
export const REVIEW_STATUSES = ['pending', 'cleared', 'rejected'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

/** An operator's decision on a pending review. */
export type ReviewMove = 'clear' | 'reject';

/** The review state machine as data: each move starts from `pending` only and is final. */
export const REVIEW_MOVES: Readonly<Record<ReviewMove, { readonly from: ReviewStatus; readonly to: ReviewStatus }>> = {
  clear: { from: 'pending', to: 'cleared' },
  reject: { from: 'pending', to: 'rejected' },
};

/**
 * The one transition function of reviews. Errors: `invalid_state` when the review is not in the
 * move's starting state (already decided).
 */
export function reviewTransition(from: ReviewStatus, move: ReviewMove): Result<ReviewStatus, 'invalid_state'> {
  const rule = REVIEW_MOVES[move];
  return rule.from === from ? ok(rule.to) : err('invalid_state', `the review is already ${from}`);
}

/**
 * A payment held by screening before any submission (docs/decisions.md § Screening): its hits
 * (list, entry id, matched name or address, score), and once decided, who decided (the admin key
 * id), why and when. The row is the audit record: it is written once per decision, never changed after.
 */
export interface ComplianceReview {
  readonly paymentId: string;
  readonly tenantId: string;
  readonly status: ReviewStatus;
  readonly hits: readonly ScreeningHit[];
  readonly createdAt: Date;
  readonly decidedBy: string | null;
  readonly decidedAt: Date | null;
  readonly reason: string | null;
}

/** True when a hit is an exact listed address: such a review can only be rejected (docs/decisions.md § Screening). */
export function hasAddressHit(review: Pick<ComplianceReview, 'hits'>): boolean {
  return review.hits.some((hit) => hit.kind === 'address');
}

/** Port: reviews written inside a money-out's transaction (the payment and its review commit together). */
export interface ComplianceReviewTxStore {
  create(review: ComplianceReview): Promise<void>;
  /**
   * Records a decision only while the review is still `from`; returns the review as written, or
   * undefined when another decision came first.
   */
  decide(paymentId: string, from: ReviewStatus, to: ReviewStatus, decidedBy: string, reason: string, at: Date): Promise<ComplianceReview | undefined>;
}

/** Port: the review queue. */
export interface ComplianceReviewStore {
  /** Reviews in `status` (all when undefined), oldest first, at most `limit`. */
  list(status: ReviewStatus | undefined, limit: number): Promise<ComplianceReview[]>;
  find(paymentId: string): Promise<ComplianceReview | undefined>;
}
