import { z } from 'zod';
import type { FeedReading, RateFeed } from '../../../core/quotes/rate-feed';
import { midOf } from './luno-rate-feed';
import type { RateHttpClient } from './rate-http';
import { readVenueMarkets, type VenueMarket } from './venue-pairs';

/** VALR's API host (https://docs.valr.com/). */
export const VALR_DEFAULT_BASE_URL = 'https://api.valr.com';

/**
 * The body of `GET /v1/public/:currencyPair/marketsummary` (https://docs.valr.com/, "Public API:
 * Get market summary for a currency pair"; no authentication): `currencyPair` the market answered,
 * `askPrice`, `bidPrice`, `lastTradedPrice` and the other prices as decimal strings, and `created`,
 * the ISO 8601 time of the summary. Other fields are not read.
 */
const marketSummaryBody = z.object({
  currencyPair: z.string(),
  askPrice: z.string(),
  bidPrice: z.string(),
  created: z.string().refine((text) => !Number.isNaN(Date.parse(text)), 'an ISO 8601 time'),
});

/**
 * VALR's public market summary (docs/providers.md § Rates), a South African venue where USDC and
 * USDT trade against ZAR: one keyless GET per configured market (RATES_VALR_MARKETS). The rate is
 * the mid of `bidPrice` and `askPrice`, timed by the summary's own `created`; a summary of another
 * market than the one asked (`currencyPair`) gives no rate.
 */
export class ValrRateFeed implements RateFeed {
  readonly name = 'valr';

  constructor(private readonly http: RateHttpClient, private readonly baseUrl: string, readonly pairs: readonly VenueMarket[]) {}

  read(): Promise<FeedReading> {
    return readVenueMarkets(this.pairs, (market) => this.readMarket(market));
  }

  private async readMarket(market: VenueMarket) {
    const url = new URL(`/v1/public/${encodeURIComponent(market.symbol)}/marketsummary`, this.baseUrl);
    const call = await this.http.get(url);
    if (call.kind === 'failed') return `${market.symbol}: ${call.reason}`;
    const parsed = marketSummaryBody.safeParse(call.body);
    if (call.httpStatus !== 200 || !parsed.success) return `${market.symbol}: HTTP ${call.httpStatus} without a market summary`;
    // Another market's summary is never priced as this one.
    if (parsed.data.currencyPair.toUpperCase() !== market.symbol) return `${market.symbol}: answered ${parsed.data.currencyPair}`;
    const mid = midOf(parsed.data.bidPrice, parsed.data.askPrice);
    if (!mid) return `${market.symbol}: no usable bid and ask`;
    return { fiat: market.fiat, stablecoin: market.stablecoin, rate: mid, at: new Date(parsed.data.created) };
  }
}
