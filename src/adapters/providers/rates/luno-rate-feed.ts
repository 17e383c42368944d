import { z } from 'zod';
import type { FeedReading, RateFeed } from '../../../core/quotes/rate-feed';
import { Decimal } from '../../../core/shared/money';
import { decimalText, type RateHttpClient } from './rate-http';
import { readVenueMarkets, type VenueMarket } from './venue-pairs';

/** Luno's API host (https://www.luno.com/en/developers/api). */
export const LUNO_DEFAULT_BASE_URL = 'https://api.luno.com';

/**
 * The body of `GET /api/1/ticker?pair=<pair>` (https://www.luno.com/en/developers/api#tag/Market/operation/GetTicker):
 * `ask`, `bid`, `last_trade` decimal strings, `pair`, `status` (`ACTIVE` when trading normally,
 * `POSTONLY`, `DISABLED` or, briefly, `UNKNOWN` otherwise) and `timestamp` in milliseconds since the epoch.
 */
const tickerBody = z.object({
  pair: z.string(),
  ask: z.string(),
  bid: z.string(),
  status: z.string(),
  timestamp: z.number().int().positive(),
});

/**
 * Luno's public ticker (docs/providers.md § Rates), a venue where USDC/USDT trade against local
 * currency: one keyless `GET /api/1/ticker` per configured market (RATES_LUNO_MARKETS). The rate is
 * the mid of the best bid and ask, timed by the ticker's own `timestamp`; a market not `ACTIVE`,
 * or with a crossed or empty book, gives no rate.
 */
export class LunoRateFeed implements RateFeed {
  readonly name = 'luno';

  constructor(private readonly http: RateHttpClient, private readonly baseUrl: string, readonly pairs: readonly VenueMarket[]) {}

  read(): Promise<FeedReading> {
    return readVenueMarkets(this.pairs, (market) => this.readMarket(market));
  }

  private async readMarket(market: VenueMarket) {
    const url = new URL('/api/1/ticker', this.baseUrl);
    url.searchParams.set('pair', market.symbol);
    const call = await this.http.get(url);
    if (call.kind === 'failed') return `${market.symbol}: ${call.reason}`;
    const parsed = tickerBody.safeParse(call.body);
    if (call.httpStatus !== 200 || !parsed.success) return `${market.symbol}: HTTP ${call.httpStatus} without a ticker`;
    if (parsed.data.pair !== market.symbol) return `${market.symbol}: answered ${parsed.data.pair}`;
    if (parsed.data.status !== 'ACTIVE') return `${market.symbol}: market ${parsed.data.status}`;
    const mid = midOf(parsed.data.bid, parsed.data.ask);
    if (!mid) return `${market.symbol}: no usable bid and ask`;
    return { fiat: market.fiat, stablecoin: market.stablecoin, rate: mid, at: new Date(parsed.data.timestamp) };
  }
}

/** The mid of a best bid and ask (decimal strings), or undefined when either is missing or the book is crossed. Pure. */
export function midOf(bidText: unknown, askText: unknown): string | undefined {
  const bid = decimalText(bidText);
  const ask = decimalText(askText);
  if (!bid || !ask || new Decimal(bid).gt(new Decimal(ask))) return undefined;
  return new Decimal(bid).plus(new Decimal(ask)).div(2).toString();
}
