import { err, ok, type Result } from '../shared/result';
import type { ScreeningHit } from './sanctions-screen';

/** States of a compliance review (docs/decisions.md § Screening). */
export const REVIEW_STATUSES = ['pending', 'cleared', 'rejected'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

/**
 * What a review holds (docs/decisions.md § Screening): a money-out before submission, a customer's
 * KYC decision, or an onchain deposit's credit. The subject's id carries its kind's prefix
 * (`pay_`, `cus_`, `dep_`), so ids never collide across kinds.
 */
export const REVIEW_SUBJECTS = ['payment', 'customer', 'deposit'] as const;
export type ReviewSubject = (typeof REVIEW_SUBJECTS)[number];

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
 * A subject held by screening (docs/decisions.md § Screening): its kind and id, its hits (list,
 * entry id, matched name or address, score), and once decided, who decided (the admin key id),
 * why and when. The row is the audit record: it is written once per decision, never changed after.
 */
export interface ComplianceReview {
  readonly subjectKind: ReviewSubject;
  /** The held payment's, customer's or deposit's id. */
  readonly subjectId: string;
  readonly tenantId: string;
  readonly status: ReviewStatus;
  readonly hits: readonly ScreeningHit[];
  readonly createdAt: Date;
  readonly decidedBy: string | null;
  readonly decidedAt: Date | null;
  readonly reason: string | null;
}

/** A new, pending review of `subjectKind` `subjectId` with its hits, created `at`. Pure. */
export function pendingReview(subjectKind: ReviewSubject, subjectId: string, tenantId: string, hits: readonly ScreeningHit[], at: Date): ComplianceReview {
  return { subjectKind, subjectId, tenantId, status: 'pending', hits, createdAt: at, decidedBy: null, decidedAt: null, reason: null };
}

/** True when a hit is an exact listed address: such a review can only be rejected (docs/decisions.md § Screening). */
export function hasAddressHit(review: Pick<ComplianceReview, 'hits'>): boolean {
  return review.hits.some((hit) => hit.kind === 'address');
}

/** Port: reviews written inside a transaction (the held subject and its review commit together). */
export interface ComplianceReviewTxStore {
  create(review: ComplianceReview): Promise<void>;
  /**
   * Records a decision only while the review is still `from`; returns the review as written, or
   * undefined when another decision came first.
   */
  decide(subjectId: string, from: ReviewStatus, to: ReviewStatus, decidedBy: string, reason: string, at: Date): Promise<ComplianceReview | undefined>;
}

/** Port: the one review queue of every kind. */
export interface ComplianceReviewStore {
  /** Reviews in `status` (all when undefined) of `kind` (all when undefined), oldest first, at most `limit`. */
  list(status: ReviewStatus | undefined, limit: number, kind?: ReviewSubject): Promise<ComplianceReview[]>;
  find(subjectId: string): Promise<ComplianceReview | undefined>;
}
