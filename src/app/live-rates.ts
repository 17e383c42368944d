import type { Logger } from 'pino';
import { CatalogRateSource } from '../adapters/providers/catalog-rate-source';
import { CoinbaseRateFeed } from '../adapters/providers/rates/coinbase-rate-feed';
import { BookRateSource, EnvironmentRateSource } from '../adapters/providers/rates/live-rate-source';
import { LunoRateFeed } from '../adapters/providers/rates/luno-rate-feed';
import { OxrRateFeed } from '../adapters/providers/rates/oxr-rate-feed';
import { RateHttpClient } from '../adapters/providers/rates/rate-http';
import { spreadTableOf, type RateSourceName } from '../adapters/providers/rates/rates-config';
import { ValrRateFeed } from '../adapters/providers/rates/valr-rate-feed';
import { PollingWorker } from '../adapters/workers/polling-worker';
import { RateRefresher, type FeedReadReport } from '../adapters/workers/rate-refresher';
import type { Catalog } from '../core/catalog/catalog';
import { RateBook } from '../core/quotes/rate-book';
import type { RateFeed, RatePair } from '../core/quotes/rate-feed';
import type { RatePinStore } from '../core/quotes/rate-pins';
import type { RateSource } from '../core/quotes/rate-source';
import { Spreads, type SpreadStore } from '../core/quotes/spread';
import type { TenantEnvironments } from '../core/routing/provider-routing';
import type { Clock } from '../core/shared/clock';
import { FIAT_CURRENCIES, STABLECOINS } from '../core/shared/money';
import type { Config } from './config';

/** The rates the service prices with, and the live machinery behind them when a source is configured. */
export interface RatesSetup {
  readonly rates: RateSource;
  /** The refresher's loop (a worker in /health); undefined without live sources. */
  readonly worker?: PollingWorker;
  readonly book?: RateBook;
  /** The spreads in force for live tenants (configured, with the operators' changes on top). */
  readonly spreads?: Spreads;
  /** First refresh, awaited at start so live tenants are priced from the first request when sources answer. */
  start(): Promise<void>;
  /** One refresh now, outside the loop's schedule (operators' tooling and tests). */
  refreshNow(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Builds the rate sources (docs/decisions.md § FX quotes: live rates): with no RATES_SOURCES every
 * tenant keeps the catalog's rates; otherwise sandbox tenants keep them and live tenants are priced
 * from the in-memory book of every catalog pair, refreshed every RATES_REFRESH_INTERVAL_MS on this
 * replica by the configured feeds; `onRead` hears of every feed read (per-source metrics).
 */
export function ratesSetup(
  config: Config, catalog: Catalog, environments: TenantEnvironments, clock: Clock, logger: Logger, pins: RatePinStore, spreadStore: SpreadStore,
  onRead?: (report: FeedReadReport) => void,
): RatesSetup {
  const catalogRates = new CatalogRateSource(catalog);
  if (config.RATES_SOURCES.length === 0) {
    return { rates: catalogRates, start: async () => undefined, refreshNow: async () => undefined, stop: async () => undefined };
  }

  const pairs: RatePair[] = FIAT_CURRENCIES.flatMap((fiat) => STABLECOINS.filter((coin) => catalog.rates[fiat]?.[coin]).map((stablecoin) => ({ fiat, stablecoin })));
  const http = new RateHttpClient(config.RATES_TIMEOUT_MS);
  const feedOf: Record<RateSourceName, () => RateFeed> = {
    coinbase: () => new CoinbaseRateFeed(http, config.RATES_COINBASE_BASE_URL, pairs),
    luno: () => new LunoRateFeed(http, config.RATES_LUNO_BASE_URL, config.RATES_LUNO_MARKETS),
    valr: () => new ValrRateFeed(http, config.RATES_VALR_BASE_URL, config.RATES_VALR_MARKETS),
    // The config refuses `oxr` without its App ID (ratesConfigProblems).
    oxr: () => new OxrRateFeed(http, {
      baseUrl: config.RATES_OXR_BASE_URL, appId: config.RATES_OXR_APP_ID ?? '', intervalMs: config.RATES_OXR_INTERVAL_SECONDS * 1000,
    }, pairs, clock),
  };
  const book = new RateBook(pairs, {
    aggregation: {
      maxAgeMs: config.RATES_SOURCE_MAX_AGE_SECONDS, defaultMaxAgeMs: config.RATES_MAX_AGE_SECONDS * 1000,
      quorum: config.RATES_QUORUM, bandPercent: config.RATES_BAND_PERCENT,
    },
    jump: { percent: config.RATES_JUMP_PERCENT, windowMs: config.RATES_JUMP_WINDOW_MINUTES * 60_000 },
    quorumByPair: config.RATES_PAIR_QUORUMS,
  });
  const spreads = new Spreads(spreadTableOf(config));
  const refresher = new RateRefresher(config.RATES_SOURCES.map((name) => feedOf[name]()), book, clock, logger, pins, { store: spreadStore, inForce: spreads }, onRead);
  // `start` makes the first refresh itself; the loop's first pass, right after it, is skipped.
  let primed = false;
  const worker = new PollingWorker('rates', async () => {
    if (primed) primed = false;
    else await refresher.refreshOnce();
    return 0;
  }, { pollIntervalMs: config.RATES_REFRESH_INTERVAL_MS, batchSize: 1 }, logger);
  const retryAfterS = Math.max(1, Math.ceil(config.RATES_REFRESH_INTERVAL_MS / 1000));
  const live = new BookRateSource(book, () => spreads.table(), retryAfterS, clock);
  let started = false;
  return {
    rates: new EnvironmentRateSource(environments, catalogRates, live),
    worker,
    book,
    spreads,
    async start() {
      if (started) return;
      started = true;
      await refresher.refreshOnce();
      primed = true;
      worker.start();
    },
    async refreshNow() {
      await refresher.refreshOnce();
    },
    async stop() {
      await worker.stop();
      await http.close();
    },
  };
}
