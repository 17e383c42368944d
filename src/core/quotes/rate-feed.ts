import type { FiatCurrency, Stablecoin } from '../shared/money';

/** A currency pair as rates are kept: units of `fiat` per 1 `stablecoin`. */
export interface RatePair {
  readonly fiat: FiatCurrency;
  readonly stablecoin: Stablecoin;
}

/** One rate a feed read: the pair, units of fiat per 1 stablecoin (exact decimal string), and the source's own timestamp. */
export interface FeedRate extends RatePair {
  readonly rate: string;
  readonly at: Date;
}

/**
 * What one read of a feed brought (docs/providers.md § Rates): the rates it could read, and a short
 * reason per pair or call that failed (for logs and metrics; never a secret). A feed that failed
 * altogether answers no rates and at least one problem.
 */
export interface FeedReading {
  readonly rates: readonly FeedRate[];
  readonly problems: readonly string[];
}

/**
 * Port: one external rate source (docs/providers.md § Rates), e.g. a reference rate or a venue where
 * USDC/USDT trade against local currency. `read` never throws for a source's fault and never waits
 * longer than its adapter's timeout; pairs it does not cover are simply absent. A read that did not
 * ask its source this time (one read less often than the book is refreshed, for its quota) answers
 * no rates and no problem: the book keeps the source's last rates until their own time is too old.
 */
export interface RateFeed {
  /** Stable lower-case name, e.g. `coinbase` (metrics, logs, per-source settings). */
  readonly name: string;
  /** The pairs this feed is configured to read. */
  readonly pairs: readonly RatePair[];
  read(): Promise<FeedReading>;
}

/** `USDC/KES`-style key of a pair (logs, maps). Pure. */
export function pairKey(pair: RatePair): string {
  return `${pair.stablecoin}/${pair.fiat}`;
}
