import type { TenantEnvironment } from '../routing/provider-routing';
import type { LoadedList, SanctionsScreen, ScreeningHit } from './sanctions-screen';

/** Screening settings (docs/decisions.md § Screening; SCREENING_REQUIRED, SCREENING_MAX_AGE_DAYS). */
export interface ScreeningPolicy {
  /** When true, a live tenant's money-out is refused while no list is loaded; sandbox tenants are never refused. */
  readonly required: boolean;
  /** A list published longer ago than this, in days, is a readiness warning (it still screens). */
  readonly maxAgeDays: number;
  /**
   * Seconds a refused caller is told to wait (`Retry-After` of `screening_unavailable`): how often
   * each replica looks for a newly loaded list (SCREENING_RELOAD_SECONDS), so a retry after it
   * meets the list once an operator loaded one.
   */
  readonly retryAfterS: number;
}

/** What screening decided about a money-out: pass, hold for review (with its hits), or refuse (no list, live tenant). */
export type ScreeningVerdict =
  | { readonly kind: 'pass' }
  | { readonly kind: 'hold'; readonly hits: readonly ScreeningHit[] }
  | { readonly kind: 'unavailable'; readonly reason: string; readonly retryAfterS: number };

/** What a money-out carries that is screened: the recipient's name and the refund address. */
export interface ScreenedParties {
  readonly accountName: string;
  readonly refundAddress: string;
}

/**
 * Screens a money-out's recipient name and refund address (docs/decisions.md § Screening). Sandbox
 * tenants are screened too when a list is loaded (their tests see holds) but are never refused
 * for a missing list. `onNearMiss` receives the best score under the threshold (entry id and score
 * only). Pure but for the screen's memory and the callback.
 */
export function screenMoneyOut(
  screen: SanctionsScreen,
  policy: ScreeningPolicy,
  environment: TenantEnvironment | undefined,
  parties: ScreenedParties,
  onNearMiss?: (nearest: { source: string; entryId: string; score: number }) => void,
): ScreeningVerdict {
  if (screen.loaded().length === 0) {
    return policy.required && environment === 'live'
      ? { kind: 'unavailable', reason: 'no sanctions list is loaded', retryAfterS: policy.retryAfterS }
      : { kind: 'pass' };
  }
  const names = screen.screenName(parties.accountName);
  if (names.hits.length === 0 && names.nearest) onNearMiss?.(names.nearest);
  const hits: ScreeningHit[] = [...screen.screenAddress(parties.refundAddress), ...names.hits];
  return hits.length > 0 ? { kind: 'hold', hits } : { kind: 'pass' };
}

/** Lists published more than `maxAgeDays` before `now`: each is a readiness warning. Pure. */
export function staleLists(lists: readonly LoadedList[], maxAgeDays: number, now: Date): LoadedList[] {
  const limit = now.getTime() - maxAgeDays * 86_400_000;
  return lists.filter((list) => list.publishedAt.getTime() < limit);
}
