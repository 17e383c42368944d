import { Decimal } from '../shared/money';
import type { Result } from '../shared/result';
import { percentMove, type AggregatedRate, type RateUnavailableCode } from './rate-aggregation';

/** A median accepted for a pair and when (our clock at the refresh that produced it). */
export interface AcceptedMid {
  readonly mid: string;
  readonly at: Date;
}

/**
 * Where one pair stands after its last refresh (docs/decisions.md § FX quotes: live rates):
 * - `awaiting`: never had a rate (just started);
 * - `live`: priced at `mid`;
 * - `suspended`: the median jumped away from `reference`; not priced until a second refresh
 *   confirms `candidate` (or comes back to `reference`);
 * - `unavailable`: quorum lost; `reference` is the last mid priced, kept for the jump guard.
 */
export type PairState =
  | { readonly status: 'awaiting' }
  | { readonly status: 'live'; readonly current: AcceptedMid }
  | { readonly status: 'suspended'; readonly reference: AcceptedMid; readonly candidate: AcceptedMid }
  | { readonly status: 'unavailable'; readonly reference?: AcceptedMid };
export type PairStatus = PairState['status'];

/** Moves of the pair state machine; each names the states it starts from and where it lands. */
export type PairMove = 'first_rate' | 'update' | 'jump' | 'confirm' | 'revert' | 'jump_again' | 'quorum_lost' | 'quorum_back';

/** The state machine as data: the statuses each move starts from and the one it lands in. */
export const PAIR_MOVES: Readonly<Record<PairMove, { readonly from: readonly PairStatus[]; readonly to: PairStatus }>> = {
  first_rate: { from: ['awaiting'], to: 'live' },
  update: { from: ['live'], to: 'live' },
  jump: { from: ['live', 'unavailable'], to: 'suspended' },
  confirm: { from: ['suspended'], to: 'live' },
  revert: { from: ['suspended'], to: 'live' },
  jump_again: { from: ['suspended'], to: 'suspended' },
  quorum_lost: { from: ['awaiting', 'live', 'suspended', 'unavailable'], to: 'unavailable' },
  quorum_back: { from: ['unavailable'], to: 'live' },
};

/** The jump guard's settings (RATES_JUMP_PERCENT, RATES_JUMP_WINDOW_MINUTES). */
export interface JumpGuard {
  /** A median moving more than this many percent (e.g. `"5"`)… */
  readonly percent: string;
  /** …within this many ms of the mid it moves from suspends the pair. */
  readonly windowMs: number;
}

/** The outcome of one refresh: the new state and the move that led there. */
export interface PairStep {
  readonly state: PairState;
  readonly move: PairMove;
}

/**
 * One refresh of a pair (docs/decisions.md § FX quotes: live rates): the aggregation's result at
 * `now` moves the pair's state. Quorum lost moves to `unavailable` from anywhere. A median more than
 * `guard.percent` away from the mid last priced, while that mid is at most `guard.windowMs` old,
 * suspends the pair (`jump`); while suspended, the next refresh within `guard.percent` of the
 * candidate confirms it (`confirm`), one back within `guard.percent` of the reference reverts to it
 * (`revert`, priced at the new median), anything else waits on the new candidate (`jump_again`).
 * Pure; exact decimals.
 */
export function refreshPair(
  state: PairState,
  aggregated: Result<AggregatedRate, RateUnavailableCode>,
  now: Date,
  guard: JumpGuard,
): PairStep {
  if (!aggregated.ok) {
    return { move: 'quorum_lost', state: { status: 'unavailable', reference: lastPriced(state) } };
  }
  const next: AcceptedMid = { mid: aggregated.value.median, at: now };
  switch (state.status) {
    case 'awaiting':
      return { move: 'first_rate', state: { status: 'live', current: next } };
    case 'live':
      return jumps(state.current, next, guard)
        ? { move: 'jump', state: { status: 'suspended', reference: state.current, candidate: next } }
        : { move: 'update', state: { status: 'live', current: next } };
    case 'suspended':
      if (!moved(state.candidate.mid, next.mid, guard)) return { move: 'confirm', state: { status: 'live', current: next } };
      if (!moved(state.reference.mid, next.mid, guard)) return { move: 'revert', state: { status: 'live', current: next } };
      return { move: 'jump_again', state: { status: 'suspended', reference: state.reference, candidate: next } };
    case 'unavailable':
      return state.reference && jumps(state.reference, next, guard)
        ? { move: 'jump', state: { status: 'suspended', reference: state.reference, candidate: next } }
        : { move: 'quorum_back', state: { status: 'live', current: next } };
  }
}

/** The mid a pair answers now, or undefined when it answers `rate_unavailable`. Pure. */
export function pricedMid(state: PairState): string | undefined {
  return state.status === 'live' ? state.current.mid : undefined;
}

function lastPriced(state: PairState): AcceptedMid | undefined {
  if (state.status === 'live') return state.current;
  if (state.status === 'awaiting') return undefined;
  return state.reference;
}

function jumps(from: AcceptedMid, to: AcceptedMid, guard: JumpGuard): boolean {
  return to.at.getTime() - from.at.getTime() <= guard.windowMs && moved(from.mid, to.mid, guard);
}

function moved(from: string, to: string, guard: JumpGuard): boolean {
  return percentMove(new Decimal(from), new Decimal(to)).abs().gt(new Decimal(guard.percent));
}
