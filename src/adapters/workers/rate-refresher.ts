import type { Logger } from 'pino';
import type { PairRefresh, RateBook } from '../../core/quotes/rate-book';
import { pairKey, type RateFeed } from '../../core/quotes/rate-feed';
import type { RatePinStore } from '../../core/quotes/rate-pins';
import type { SpreadStore, Spreads } from '../../core/quotes/spread';
import type { Clock } from '../../core/shared/clock';

/** Moves operators are told about (docs/decisions.md § FX quotes: live rates); `update` and `first_rate` are routine. */
const TOLD: ReadonlySet<string> = new Set(['jump', 'confirm', 'revert', 'jump_again', 'quorum_lost', 'quorum_back']);

/** What one read of a feed brought, for metrics: counts only, and our clock when it ended. */
export interface FeedReadReport {
  readonly source: string;
  readonly rates: number;
  readonly problems: number;
  readonly at: Date;
}

/**
 * Refreshes the rate book (docs/decisions.md § FX quotes: live rates): each pass reads every feed at
 * once (each bounded by its adapter's timeout), records what they brought, and moves every pair.
 * Every replica runs its own, so no replica waits on another or on the database to price; requests
 * only ever read the book. Feed problems, sources left out of the band and every non-routine move
 * are logged at warn (pair, sources, rates and reasons: public market data, no secret). Each pass
 * also reads the operators' pins and spreads from the database, so a change made on any replica
 * applies on this one from its next refresh.
 */
export class RateRefresher {
  constructor(
    private readonly feeds: readonly RateFeed[],
    private readonly book: RateBook,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly pins?: RatePinStore,
    private readonly spreads?: { readonly store: SpreadStore; readonly inForce: Spreads },
    /** Told of every feed read (per-source metrics: last success, errors). */
    private readonly onRead?: (report: FeedReadReport) => void,
  ) {}

  /** One pass: read, record, refresh; answers what happened to each pair. Never throws for a feed's fault. */
  async refreshOnce(): Promise<PairRefresh[]> {
    const readings = await Promise.all(this.feeds.map(async (feed) => ({ feed, reading: await feed.read() })));
    const readAt = this.clock.now();
    for (const { feed, reading } of readings) {
      this.book.record(feed.name, reading);
      this.onRead?.({ source: feed.name, rates: reading.rates.length, problems: reading.problems.length, at: readAt });
      if (reading.problems.length > 0) this.logger.warn({ source: feed.name, problems: reading.problems.slice(0, 10) }, 'rate source problems');
    }
    const now = this.clock.now();
    if (this.pins) {
      // Pins taken on any replica apply here from this refresh on; a failed read keeps the ones known.
      try {
        this.book.setPins(await this.pins.active(now));
      } catch (error) {
        this.logger.error({ err: error }, 'rate pins could not be read; keeping the ones known');
      }
    }
    if (this.spreads) {
      try {
        this.spreads.inForce.set(await this.spreads.store.latest());
      } catch (error) {
        this.logger.error({ err: error }, 'rate spreads could not be read; keeping the ones known');
      }
    }
    const refreshed = this.book.refresh(now);
    for (const step of refreshed) this.report(step);
    return refreshed;
  }

  private report(step: PairRefresh): void {
    const pair = pairKey(step.pair);
    const outOfBand = step.leftOut.filter((l) => l.reason === 'out_of_band');
    if (outOfBand.length > 0) {
      this.logger.warn({ pair, sources: outOfBand.map((l) => ({ source: l.source, rate: l.rate, deviationPercent: l.deviationPercent })) }, 'rate source left out: too far from the median');
    }
    if (!TOLD.has(step.move)) return;
    const { state } = step;
    this.logger.warn({
      pair, move: step.move, status: state.status,
      mid: state.status === 'live' ? state.current.mid : undefined,
      reference: state.status === 'suspended' || state.status === 'unavailable' ? state.reference?.mid : undefined,
      candidate: state.status === 'suspended' ? state.candidate.mid : undefined,
      stale: step.leftOut.filter((l) => l.reason === 'stale').map((l) => l.source),
    }, `rate pair ${step.move.replace('_', ' ')}`);
  }
}
