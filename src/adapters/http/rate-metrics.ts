import { Counter, Gauge, type Registry } from 'prom-client';
import type { RatePairView } from '../../core/quotes/rate-book';
import { medianOf, percentMove } from '../../core/quotes/rate-aggregation';
import { Decimal } from '../../core/shared/money';

/** What one read of a rate source brought, as the refresher reports it (docs/decisions.md § FX quotes: live rates). */
export interface RateSourceRead {
  /** Source name (`coinbase`, `luno`, `valr`): a bounded set, the configured RATES_SOURCES. */
  readonly source: string;
  /** Rates the read brought; 0 when it failed altogether. */
  readonly rates: number;
  /** Problems it reported (a failed call, a market it could not read); 0 when clean. */
  readonly problems: number;
  /** Our clock when the read ended. */
  readonly at: Date;
}

/**
 * Live rate source metrics (docs/decisions.md § FX quotes: live rates, README "Metrics and health"),
 * on the service's registry, per process (each replica refreshes its own book):
 * - `rate_source_last_success_timestamp_seconds{source}`: Unix seconds of the last read that brought a rate;
 * - `rate_source_errors_total{source}`: reads that reported a problem (failed call, unreadable market);
 * - `rate_source_age_seconds{source,pair}`: now less the source's OWN timestamp of its latest rate for the pair;
 * - `rate_source_deviation_percent{source,pair}`: signed distance of that rate from the median of the
 *   sources the last refresh used for the pair (absent while the pair is short of its quorum).
 * Age and deviation are read from the book on each scrape. Labels: configured sources and catalog pairs.
 */
export class RateMetrics {
  private readonly lastSuccess: Gauge;
  private readonly errors: Counter;

  constructor(registry: Registry, book: () => readonly RatePairView[], now: () => Date) {
    this.lastSuccess = new Gauge({
      name: 'rate_source_last_success_timestamp_seconds', help: 'Unix seconds of the last read of a rate source that brought a rate, by source',
      labelNames: ['source'], registers: [registry],
    });
    this.errors = new Counter({
      name: 'rate_source_errors_total', help: 'Reads of a rate source that reported a problem (failed call, unreadable market), by source',
      labelNames: ['source'], registers: [registry],
    });
    new Gauge({
      name: 'rate_source_age_seconds', help: "Seconds since the source's own timestamp of its latest rate, by source and pair",
      labelNames: ['source', 'pair'], registers: [registry],
      collect() {
        this.reset();
        const at = now().getTime();
        for (const pair of book()) {
          for (const s of pair.sources) this.set({ source: s.source, pair: pair.pair }, Math.max(0, at - s.at.getTime()) / 1000);
        }
      },
    });
    new Gauge({
      name: 'rate_source_deviation_percent', help: 'Signed percent between a source\'s rate and the median of the sources used for the pair at the last refresh',
      labelNames: ['source', 'pair'], registers: [registry],
      collect() {
        this.reset();
        for (const pair of book()) {
          const used = pair.sources.filter((s) => s.used).map((s) => new Decimal(s.rate));
          if (used.length === 0) continue;
          const median = medianOf(used);
          for (const s of pair.sources) {
            const rate = validRate(s.rate);
            // A float for alerting only; the prices themselves never leave exact decimals.
            if (rate) this.set({ source: s.source, pair: pair.pair }, percentMove(median, rate).toNumber());
          }
        }
      },
    });
  }

  /** Records one read of a source: a success when it brought a rate, an error when it reported a problem (both may hold). */
  sourceRead(read: RateSourceRead): void {
    if (read.rates > 0) this.lastSuccess.set({ source: read.source }, read.at.getTime() / 1000);
    if (read.problems > 0) this.errors.inc({ source: read.source });
    // Makes the series exist (at 0) from the first read, so `rate(...)` and alerts see a source that never failed.
    else this.errors.inc({ source: read.source }, 0);
  }
}

function validRate(text: string): Decimal | undefined {
  try {
    const value = new Decimal(text);
    return value.isFinite() && value.gt(0) ? value : undefined;
  } catch {
    return undefined;
  }
}
