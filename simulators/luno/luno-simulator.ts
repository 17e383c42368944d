import Decimal from 'decimal.js';
import { send, startRateSimulator, type RateSimulator } from '../rate-sim/rate-sim';

/** Markets it starts with (ZAR and NGN per 1 USDC/USDT). */
export const LUNO_SIM_DEFAULT_RATES: Readonly<Record<string, string>> = {
  USDCZAR: '17.86', USDTZAR: '17.85', USDCNGN: '1536.10', USDTNGN: '1535.20',
};

/**
 * Starts a simulator of Luno's public `GET /api/1/ticker?pair=<pair>`
 * (https://www.luno.com/en/developers/api#tag/Market/operation/GetTicker): `{pair, timestamp (ms),
 * bid, ask, last_trade, rolling_24_hour_volume, status}` with prices as decimal strings; bid and ask
 * sit 0.1 % either side of the set rate, so their mid is the rate. `stale` mode dates `timestamp`
 * back. An unknown pair is 404 `{error, error_code}`. Modes as in rate-sim.ts.
 */
export function startLunoSimulator(options: { port?: number; host?: string; rates?: Record<string, string> } = {}): Promise<RateSimulator> {
  return startRateSimulator({ ...options, rates: options.rates ?? LUNO_SIM_DEFAULT_RATES }, (state, url, res) => {
    if (url.pathname !== '/api/1/ticker') return false;
    const pair = url.searchParams.get('pair') ?? '';
    const price = state.price(pair);
    if (!price) {
      send(res, 404, { error: 'Market not found.', error_code: 'ErrMarketNotFound' });
      return true;
    }
    const rate = new Decimal(price.rate);
    send(res, 200, {
      pair,
      timestamp: price.at.getTime(),
      bid: rate.times('0.999').toString(),
      ask: rate.times('1.001').toString(),
      last_trade: price.rate,
      rolling_24_hour_volume: '125000.00',
      status: 'ACTIVE',
    });
    return true;
  }, { error: 'Service unavailable', error_code: 'ErrUnavailable' });
}
