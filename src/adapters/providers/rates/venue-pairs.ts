import type { FeedRate, FeedReading, RatePair } from '../../../core/quotes/rate-feed';
import { FIAT_CURRENCIES, STABLECOINS, type FiatCurrency, type Stablecoin } from '../../../core/shared/money';

/** A venue's market symbol with the pair it prices: `USDCZAR` is ZAR per 1 USDC (base then counter, no separator). */
export interface VenueMarket extends RatePair {
  readonly symbol: string;
}

/**
 * Parses a list like `USDCZAR,USDTNGN` into markets: a stablecoin the service settles in followed
 * by a fiat currency it pays out (docs/providers.md § Rates). Throws naming the bad symbol (config
 * errors stop the start). Pure.
 */
export function parseVenueMarkets(list: string, variable: string): VenueMarket[] {
  return list.split(',').map((item) => item.trim().toUpperCase()).filter((item) => item !== '').map((symbol) => {
    const stablecoin = STABLECOINS.find((coin) => symbol.startsWith(coin));
    const fiat = stablecoin ? symbol.slice(stablecoin.length) : '';
    if (!stablecoin || !(FIAT_CURRENCIES as readonly string[]).includes(fiat)) {
      throw new Error(`${variable}: "${symbol}" is not a USDC or USDT market against a fiat currency the service pays out`);
    }
    return { symbol, stablecoin: stablecoin as Stablecoin, fiat: fiat as FiatCurrency };
  });
}

/**
 * One read of a venue (RateFeed.read, docs/providers.md § Rates): every market asked at once,
 * each answering its rate or a problem (why that market gave no rate, as text).
 */
export async function readVenueMarkets(markets: readonly VenueMarket[], readMarket: (market: VenueMarket) => Promise<FeedRate | string>): Promise<FeedReading> {
  const results = await Promise.all(markets.map(readMarket));
  return {
    rates: results.flatMap((r) => (typeof r === 'string' ? [] : [r])),
    problems: results.filter((r): r is string => typeof r === 'string'),
  };
}
