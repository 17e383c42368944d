import { pricedMid, refreshPair, type JumpGuard, type PairMove, type PairState } from './pair-state';
import { aggregateRates, type AggregationSettings, type LeftOutSource, type SourceRate } from './rate-aggregation';
import { pairKey, type FeedReading, type RatePair } from './rate-feed';
import { pinInForce, type RatePin } from './rate-pins';

/** How the book combines its sources (docs/decisions.md § FX quotes: live rates). */
export interface RateBookSettings {
  readonly aggregation: AggregationSettings;
  readonly jump: JumpGuard;
  /**
   * Quorum per pair key (`USDC/KES`) over `aggregation.quorum`, for pairs an operator knowingly runs
   * on fewer sources (RATES_PAIR_QUORUMS).
   */
  readonly quorumByPair?: Readonly<Record<string, number>>;
}

/** What one refresh did to one pair: the move, the state it left, the sources used and left out. */
export interface PairRefresh {
  readonly pair: RatePair;
  readonly move: PairMove;
  readonly state: PairState;
  readonly used: readonly SourceRate[];
  readonly leftOut: readonly LeftOutSource[];
}

interface LastRefresh {
  readonly at: Date;
  readonly used: readonly SourceRate[];
  readonly idle: readonly SourceRate[];
  readonly leftOut: readonly LeftOutSource[];
}

/**
 * One source of a pair as the last refresh saw it: its rate, its own time, whether it entered the
 * median (`used`), and if not why (`stale`, `out_of_band`; null: the pair was short of its quorum).
 */
export interface RateSourceView {
  readonly source: string;
  readonly rate: string;
  readonly at: Date;
  readonly used: boolean;
  readonly reason: 'stale' | 'out_of_band' | null;
  readonly deviationPercent: string | null;
}

/** A pair as operators see it (GET /v1/admin/rates): its state, the mid it is priced at, and its sources. */
export interface RatePairView {
  readonly pair: string;
  readonly status: PairState['status'];
  /** The mid priced now; null unless `live`. */
  readonly mid: string | null;
  /** While suspended or unavailable: the last mid priced; while suspended: the level awaiting confirmation. */
  readonly reference: string | null;
  readonly candidate: string | null;
  /** When the last refresh ran (our clock); null before the first. */
  readonly refreshedAt: Date | null;
  readonly sources: readonly RateSourceView[];
  /** The operator's pin in force, which wins over the sources until it expires; null when none. */
  readonly pin: { readonly id: string; readonly rate: string; readonly reason: string; readonly createdBy: string; readonly expiresAt: Date } | null;
}

/**
 * The live rates of every pair the service quotes (docs/decisions.md § FX quotes: live rates), held
 * in memory: each source's latest rate per pair (kept until replaced, so a source that fails for a
 * while still counts until its own timestamp is too old), and each pair's state. `refresh` applies
 * the aggregation and the jump guard; `mid` answers from memory, never waiting on a source.
 * Pure TypeScript; the caller owns the clock and the schedule.
 */
export class RateBook {
  private readonly latest = new Map<string, Map<string, SourceRate>>();
  private readonly states = new Map<string, PairState>();
  private readonly last = new Map<string, LastRefresh>();
  private pins: readonly RatePin[] = [];

  constructor(readonly pairs: readonly RatePair[], private readonly settings: RateBookSettings) {
    for (const pair of pairs) this.states.set(pairKey(pair), { status: 'awaiting' });
  }

  /** Keeps `source`'s rates from one reading; pairs the book does not quote are ignored. */
  record(source: string, reading: FeedReading): void {
    for (const rate of reading.rates) {
      const key = pairKey(rate);
      if (!this.states.has(key)) continue;
      const bySource = this.latest.get(key) ?? new Map<string, SourceRate>();
      bySource.set(source, { source, rate: rate.rate, at: rate.at });
      this.latest.set(key, bySource);
    }
  }

  /** Re-aggregates every pair at `now` and moves its state; one entry per pair, in `pairs` order. */
  refresh(now: Date): PairRefresh[] {
    return this.pairs.map((pair) => {
      const key = pairKey(pair);
      const rates = [...(this.latest.get(key)?.values() ?? [])];
      const quorum = this.settings.quorumByPair?.[key] ?? this.settings.aggregation.quorum;
      const aggregated = aggregateRates(rates, now, { ...this.settings.aggregation, quorum });
      const step = refreshPair(this.states.get(key) ?? { status: 'awaiting' }, aggregated, now, this.settings.jump);
      this.states.set(key, step.state);
      const leftOut = aggregated.ok ? aggregated.value.leftOut : ((aggregated.details?.leftOut ?? []) as LeftOutSource[]);
      const used = aggregated.ok ? aggregated.value.used : [];
      // Fresh sources of a pair short of its quorum are neither used nor left out.
      const idle = aggregated.ok ? [] : rates.filter((r) => !leftOut.some((l) => l.source === r.source));
      this.last.set(key, { at: now, used, idle, leftOut });
      return { pair, move: step.move, state: step.state, used, leftOut };
    });
  }

  /** Replaces the operators' pins with `pins` (the active ones, read at each refresh). */
  setPins(pins: readonly RatePin[]): void {
    this.pins = [...pins];
  }

  /** Adds one pin now (the replica that took it applies it before its next refresh). */
  addPin(pin: RatePin): void {
    this.pins = [pin, ...this.pins.filter((p) => p.id !== pin.id)];
  }

  /**
   * The mid rate a pair is priced at `now`: an operator's pin in force wins; else the book's mid, or
   * undefined (not quoted, awaiting, suspended or unavailable).
   */
  mid(pair: RatePair, now: Date): string | undefined {
    const state = this.states.get(pairKey(pair));
    if (!state) return undefined;
    return pinInForce(this.pins, pair, now)?.rate ?? pricedMid(state);
  }

  /**
   * What a pair is priced from at `now` (docs/decisions.md § FX quotes: pricing records): an
   * operator's pin in force (`pin`, no sources), else the live mid with the sources the last refresh
   * used for it (a pair is live only right after a refresh that priced it, so those are the mid's
   * sources); undefined when `mid` is.
   */
  basis(pair: RatePair, now: Date): { origin: 'live' | 'pin'; mid: string; sources: readonly SourceRate[]; pinId: string | null } | undefined {
    const key = pairKey(pair);
    const state = this.states.get(key);
    if (!state) return undefined;
    const pin = pinInForce(this.pins, pair, now);
    if (pin) return { origin: 'pin', mid: pin.rate, sources: [], pinId: pin.id };
    const mid = pricedMid(state);
    return mid === undefined ? undefined : { origin: 'live', mid, sources: this.last.get(key)?.used ?? [], pinId: null };
  }

  /** Whether the book quotes `pair` at all (live or not). */
  quotes(pair: RatePair): boolean {
    return this.states.has(pairKey(pair));
  }

  /** Every pair as operators see it, in `pairs` order (GET /v1/admin/rates). */
  view(now: Date): RatePairView[] {
    return this.pairs.map((pair) => {
      const pin = pinInForce(this.pins, pair, now);
      const key = pairKey(pair);
      const state = this.states.get(key) ?? { status: 'awaiting' as const };
      const last = this.last.get(key);
      const priced = pricedMid(state);
      const plain = (used: boolean) => (r: SourceRate): RateSourceView => ({ source: r.source, rate: r.rate, at: r.at, used, reason: null, deviationPercent: null });
      const sources: RateSourceView[] = [
        ...(last?.used ?? []).map(plain(true)),
        ...(last?.idle ?? []).map(plain(false)),
        ...(last?.leftOut ?? []).map((l) => ({ source: l.source, rate: l.rate, at: l.at, used: false, reason: l.reason, deviationPercent: l.deviationPercent ?? null })),
      ];
      return {
        pair: key,
        status: state.status,
        mid: pin?.rate ?? priced ?? null,
        reference: state.status === 'suspended' || state.status === 'unavailable' ? state.reference?.mid ?? null : null,
        candidate: state.status === 'suspended' ? state.candidate.mid : null,
        refreshedAt: last?.at ?? null,
        sources: sources.sort((a, b) => a.source.localeCompare(b.source)),
        pin: pin ? { id: pin.id, rate: pin.rate, reason: pin.reason, createdBy: pin.createdBy, expiresAt: pin.expiresAt } : null,
      };
    });
  }

  /** A pair's state (undefined for a pair the book does not quote). */
  stateOf(pair: RatePair): PairState | undefined {
    return this.states.get(pairKey(pair));
  }
}
