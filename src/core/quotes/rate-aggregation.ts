import { Decimal } from '../shared/money';
import { err, ok, type Result } from '../shared/result';

/** Why a pair has no live rate now (docs/decisions.md § FX quotes: live rates): the one code every transport answers 503 with. */
export type RateUnavailableCode = 'rate_unavailable';

/**
 * One source's rate for a pair as the source published it (docs/providers.md § Rates): `rate` is
 * units of fiat per 1 stablecoin as an exact positive decimal string, `at` the source's OWN
 * timestamp for it (never the time we fetched it).
 */
export interface SourceRate {
  /** Source name, e.g. `coinbase`, `luno`, `valr`. */
  readonly source: string;
  readonly rate: string;
  readonly at: Date;
}

/** How the sources of one pair are combined (docs/decisions.md § FX quotes: live rates). */
export interface AggregationSettings {
  /** Oldest a source's own timestamp may be, ms, per source name; a source not listed uses `defaultMaxAgeMs`. */
  readonly maxAgeMs: Readonly<Record<string, number>>;
  readonly defaultMaxAgeMs: number;
  /** Fewest fresh, in-band sources a pair needs to have a rate (default 2). */
  readonly quorum: number;
  /** A source further than this many percent from the median of the fresh sources is left out (e.g. `"2"`). */
  readonly bandPercent: string;
}

/** Why a source's rate was not used. */
export type LeftOutReason = 'stale' | 'out_of_band';

/** A source that was not used, with why; `deviationPercent` (signed, vs the first median) for `out_of_band`. */
export interface LeftOutSource {
  readonly source: string;
  readonly rate: string;
  readonly at: Date;
  readonly reason: LeftOutReason;
  readonly deviationPercent?: string;
}

/** The combined rate of a pair: the median of the sources used, and every source left out with why. */
export interface AggregatedRate {
  /** Median of `used` (the mean of the two middle rates for an even count), exact. */
  readonly median: string;
  readonly used: readonly SourceRate[];
  readonly leftOut: readonly LeftOutSource[];
}

/** An unavailable pair still reports what it left out (for logs and operators). */
export interface Unavailable {
  readonly leftOut: readonly LeftOutSource[];
  readonly fresh: number;
}

const HUNDRED = new Decimal(100);

/** Median of exact decimals (non-empty): the middle one, or the mean of the two middle ones. Pure. */
export function medianOf(rates: readonly Decimal[]): Decimal {
  const sorted = [...rates].sort((a, b) => a.comparedTo(b));
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : sorted[middle - 1]!.plus(sorted[middle]!).div(2);
}

/** Signed move from `from` to `to`, in percent of `from`. Pure. */
export function percentMove(from: Decimal, to: Decimal): Decimal {
  return to.minus(from).div(from).times(HUNDRED);
}

/**
 * Combines the sources of one pair (docs/decisions.md § FX quotes: live rates): keeps the sources
 * whose own timestamp is at most their maximum age before `now` (a timestamp ahead of `now` counts
 * as age 0: clocks differ by a little), takes the median of those, leaves out any source further
 * than `bandPercent` from it, and answers the median of the rest. Fewer than `quorum` fresh sources,
 * or fewer than `quorum` left in the band, is `rate_unavailable` (details: `leftOut`, `fresh`).
 * Non-positive or non-decimal rates count as stale: never priced from. Pure; exact decimals.
 */
export function aggregateRates(
  rates: readonly SourceRate[],
  now: Date,
  settings: AggregationSettings,
): Result<AggregatedRate, RateUnavailableCode> {
  const leftOut: LeftOutSource[] = [];
  const fresh: { readonly quote: SourceRate; readonly value: Decimal }[] = [];
  for (const quote of rates) {
    const value = positiveDecimal(quote.rate);
    const maxAge = settings.maxAgeMs[quote.source] ?? settings.defaultMaxAgeMs;
    if (value === undefined || now.getTime() - quote.at.getTime() > maxAge) {
      leftOut.push({ source: quote.source, rate: quote.rate, at: quote.at, reason: 'stale' });
    } else fresh.push({ quote, value });
  }
  const unavailable = (message: string) => err('rate_unavailable' as const, message, { leftOut, fresh: fresh.length } satisfies Unavailable);
  if (fresh.length < settings.quorum) return unavailable(`${fresh.length} fresh source(s), quorum ${settings.quorum}`);

  const first = medianOf(fresh.map((f) => f.value));
  const band = new Decimal(settings.bandPercent);
  const used: SourceRate[] = [];
  const kept: Decimal[] = [];
  for (const { quote, value } of fresh) {
    const deviation = percentMove(first, value);
    if (deviation.abs().gt(band)) {
      leftOut.push({ source: quote.source, rate: quote.rate, at: quote.at, reason: 'out_of_band', deviationPercent: deviation.toDecimalPlaces(4).toString() });
    } else {
      used.push(quote);
      kept.push(value);
    }
  }
  if (kept.length < settings.quorum) return unavailable(`${kept.length} source(s) within ${settings.bandPercent} % of the median, quorum ${settings.quorum}`);
  return ok({ median: medianOf(kept).toString(), used, leftOut });
}

function positiveDecimal(text: string): Decimal | undefined {
  try {
    const value = new Decimal(text);
    return value.isFinite() && value.gt(0) ? value : undefined;
  } catch {
    return undefined;
  }
}
