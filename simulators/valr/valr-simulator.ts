import Decimal from 'decimal.js';
import { send, startRateSimulator, type RateSimulator } from '../rate-sim/rate-sim';

/** Markets it starts with (ZAR per 1 USDC/USDT). */
export const VALR_SIM_DEFAULT_RATES: Readonly<Record<string, string>> = { USDCZAR: '17.84', USDTZAR: '17.83' };

/**
 * Starts a simulator of VALR's public `GET /v1/public/:currencyPair/marketsummary`
 * (https://docs.valr.com/, "Get market summary for a currency pair"): `{currencyPair, askPrice,
 * bidPrice, lastTradedPrice, previousClosePrice, baseVolume, highPrice, lowPrice, created,
 * changeFromPrevious}`, prices as decimal strings and `created` ISO 8601; bid and ask 0.1 % either
 * side of the set rate. `stale` mode dates `created` back. An unknown pair is 400 `{code, message}`.
 * Modes as in rate-sim.ts.
 */
export function startValrSimulator(options: { port?: number; host?: string; rates?: Record<string, string> } = {}): Promise<RateSimulator> {
  return startRateSimulator({ ...options, rates: options.rates ?? VALR_SIM_DEFAULT_RATES }, (state, url, res) => {
    const match = /^\/v1\/public\/([A-Za-z0-9]+)\/marketsummary$/.exec(url.pathname);
    if (!match) return false;
    const pair = match[1]!.toUpperCase();
    const price = state.price(pair);
    if (!price) {
      send(res, 400, { code: -1, message: 'Invalid currency pair' });
      return true;
    }
    const rate = new Decimal(price.rate);
    send(res, 200, {
      currencyPair: pair,
      askPrice: rate.times('1.001').toString(),
      bidPrice: rate.times('0.999').toString(),
      lastTradedPrice: price.rate,
      previousClosePrice: price.rate,
      baseVolume: '250000',
      highPrice: rate.times('1.01').toString(),
      lowPrice: rate.times('0.99').toString(),
      created: price.at.toISOString(),
      changeFromPrevious: '0',
    });
    return true;
  }, { code: -1, message: 'Service unavailable' });
}
