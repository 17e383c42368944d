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

/** The screen a use case asks, its policy, and what is logged (entry ids and scores only, never a name). */
export interface SubjectScreening {
  readonly screen: SanctionsScreen;
  readonly policy: ScreeningPolicy;
  /** A name that came close under the threshold: it passes, logged with its best entry id and score. */
  readonly onNearMiss?: (nearest: { source: string; entryId: string; score: number }) => void;
  /** A new subject (payment or customer) held for review, with its hits. */
  readonly onHeld?: (subjectId: string, hits: readonly ScreeningHit[]) => void;
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
  const none = noList(screen, policy, environment);
  if (none) return none;
  const names = screen.screenName(parties.accountName);
  if (names.hits.length === 0 && names.nearest) onNearMiss?.(names.nearest);
  const hits: ScreeningHit[] = [...screen.screenAddress(parties.refundAddress), ...names.hits];
  return hits.length > 0 ? { kind: 'hold', hits } : { kind: 'pass' };
}

/**
 * Screens a new customer's name (first and last name, in that order: the matcher ignores token
 * order) with the same screen and threshold as a money-out's recipient (docs/decisions.md §
 * Screening: customers). Same policy for a missing list: a live tenant is refused when screening
 * is required, a sandbox tenant never. Pure but for the screen's memory and the callback.
 */
export function screenCustomer(
  screen: SanctionsScreen,
  policy: ScreeningPolicy,
  environment: TenantEnvironment | undefined,
  person: { readonly firstName: string; readonly lastName: string },
  onNearMiss?: (nearest: { source: string; entryId: string; score: number }) => void,
): ScreeningVerdict {
  const none = noList(screen, policy, environment);
  if (none) return none;
  const names = screen.screenName(`${person.firstName} ${person.lastName}`);
  if (names.hits.length === 0 && names.nearest) onNearMiss?.(names.nearest);
  return names.hits.length > 0 ? { kind: 'hold', hits: names.hits } : { kind: 'pass' };
}

/** The verdict while no list is loaded (refuse a live tenant when required, else pass), or undefined when lists are loaded. */
function noList(screen: SanctionsScreen, policy: ScreeningPolicy, environment: TenantEnvironment | undefined): ScreeningVerdict | undefined {
  if (screen.loaded().length > 0) return undefined;
  return policy.required && environment === 'live'
    ? { kind: 'unavailable', reason: 'no sanctions list is loaded', retryAfterS: policy.retryAfterS }
    : { kind: 'pass' };
}

/** Lists published more than `maxAgeDays` before `now`: each is a readiness warning. Pure. */
export function staleLists(lists: readonly LoadedList[], maxAgeDays: number, now: Date): LoadedList[] {
  const limit = now.getTime() - maxAgeDays * 86_400_000;
  return lists.filter((list) => list.publishedAt.getTime() < limit);
}
