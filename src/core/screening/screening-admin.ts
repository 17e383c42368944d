import type { Result } from '../shared/result';
import type { ComplianceReview, ReviewStatus, ReviewSubject } from './compliance-review';
import { loadList, type LoadListDeps } from './load-list';
import { clearReview, listReviews, rejectReview, type ReviewDeps, type ReviewErrorCode } from './review-decisions';
import type { LoadedList, SanctionsScreen } from './sanctions-screen';
import { staleLists, type ScreeningPolicy } from './screening-rules';

/** What operators see of screening (GET /v1/admin/screening): the lists stored, the ones this replica screens with, and stale ones. */
export interface ScreeningStatus {
  /** Each source's current list as stored (what every replica loads). */
  readonly stored: readonly LoadedList[];
  /** The lists this replica screens with now (a reload may lag the store by one poll). */
  readonly inMemory: readonly LoadedList[];
  /** Lists published more than SCREENING_MAX_AGE_DAYS ago (readiness warnings). */
  readonly stale: readonly LoadedList[];
  /** Whether live money-outs are refused while no list is loaded (SCREENING_REQUIRED). */
  readonly required: boolean;
}

/** Operators' screening use cases (docs/api.md § Compliance reviews; docs/operations.md § Sanctions screening). */
export interface ScreeningAdmin {
  /** Parses, validates and stores a list file. Errors: `validation_error` (nothing stored). */
  loadList(source: string, document: string): Promise<Result<LoadedList, 'validation_error'>>;
  status(): Promise<ScreeningStatus>;
  /** The one queue of every kind (`kind` filters), oldest first. */
  listReviews(status: ReviewStatus | undefined, limit: number, kind?: ReviewSubject): Promise<ComplianceReview[]>;
  /** Clears a held payment or customer, recorded with the admin key and reason. Errors: `validation_error`, `not_found`, `invalid_state`. */
  clearReview(subjectId: string, keyId: string, reason: string): Promise<Result<ComplianceReview, ReviewErrorCode>>;
  /** Rejects a held subject (payment fails as compliance_rejected, customer rejected), recorded with the admin key and reason. Errors as clearReview. */
  rejectReview(subjectId: string, keyId: string, reason: string): Promise<Result<ComplianceReview, ReviewErrorCode>>;
}

/** Binds the screening admin use cases to their ports. */
export function createScreeningAdmin(deps: LoadListDeps & ReviewDeps & { readonly screen: SanctionsScreen; readonly policy: ScreeningPolicy }): ScreeningAdmin {
  return {
    loadList: (source, document) => loadList(deps, source, document),
    status: async () => ({
      stored: await deps.lists.versions(),
      inMemory: deps.screen.loaded(),
      stale: staleLists(deps.screen.loaded(), deps.policy.maxAgeDays, deps.clock.now()),
      required: deps.policy.required,
    }),
    listReviews: (status, limit, kind) => listReviews(deps, status, limit, kind),
    clearReview: (subjectId, keyId, reason) => clearReview(deps, subjectId, keyId, reason),
    rejectReview: (subjectId, keyId, reason) => rejectReview(deps, subjectId, keyId, reason),
  };
}
