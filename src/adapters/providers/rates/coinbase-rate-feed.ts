import { z } from 'zod';
import type { FeedRate, FeedReading, RateFeed, RatePair } from '../../../core/quotes/rate-feed';
import type { Stablecoin } from '../../../core/shared/money';
import { decimalText, type RateHttpClient } from './rate-http';

/** Coinbase's public API host (https://docs.cdp.coinbase.com/coinbase-app/track-apis/exchange-rates). */
export const COINBASE_DEFAULT_BASE_URL = 'https://api.coinbase.com';

/**
 * The body of `GET /v2/exchange-rates?currency=<base>`: `data.currency` the base, `data.rates` the
 * units of each currency per 1 base unit as decimal strings
 * (https://docs.cdp.coinbase.com/coinbase-app/track-apis/exchange-rates, "Get Exchange Rates").
 */
const exchangeRatesBody = z.object({
  data: z.object({ currency: z.string(), rates: z.record(z.string(), z.unknown()) }),
});

/**
 * Coinbase's keyless reference rates (docs/providers.md § Rates): one `GET /v2/exchange-rates?currency=USDC`
 * (and `=USDT`) per read gives every fiat pair at once. The body carries no timestamp, so a rate's
 * time is the response's `Date` header (Coinbase's own clock at answering); an answer without one is
 * a failed read, never a rate timed by our clock.
 */
export class CoinbaseRateFeed implements RateFeed {
  readonly name = 'coinbase';

  constructor(private readonly http: RateHttpClient, private readonly baseUrl: string, readonly pairs: readonly RatePair[]) {}

  async read(): Promise<FeedReading> {
    const coins = [...new Set(this.pairs.map((p) => p.stablecoin))];
    const readings = await Promise.all(coins.map((coin) => this.readBase(coin)));
    return { rates: readings.flatMap((r) => r.rates), problems: readings.flatMap((r) => r.problems) };
  }

  private async readBase(coin: Stablecoin): Promise<FeedReading> {
    const url = new URL('/v2/exchange-rates', this.baseUrl);
    url.searchParams.set('currency', coin);
    const call = await this.http.get(url);
    if (call.kind === 'failed') return { rates: [], problems: [`${coin}: ${call.reason}`] };
    const parsed = exchangeRatesBody.safeParse(call.body);
    if (call.httpStatus !== 200 || !parsed.success) return { rates: [], problems: [`${coin}: HTTP ${call.httpStatus} without exchange rates`] };
    if (parsed.data.data.currency !== coin) return { rates: [], problems: [`${coin}: answered rates for ${parsed.data.data.currency}`] };
    if (!call.date) return { rates: [], problems: [`${coin}: no Date header to time the rates by`] };
    const rates: FeedRate[] = [];
    const problems: string[] = [];
    for (const pair of this.pairs.filter((p) => p.stablecoin === coin)) {
      const rate = decimalText(parsed.data.data.rates[pair.fiat]);
      if (rate) rates.push({ ...pair, rate, at: call.date });
      else problems.push(`${coin}/${pair.fiat}: no rate`);
    }
    return { rates, problems };
  }
}
