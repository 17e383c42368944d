import { send, startRateSimulator, type RateSimulator } from '../rate-sim/rate-sim';

/** Reference rates it starts with, `<stablecoin>:<fiat>` → units of fiat per 1 stablecoin (the catalog's, roughly). */
export const COINBASE_SIM_DEFAULT_RATES: Readonly<Record<string, string>> = {
  'USDC:KES': '129.25', 'USDC:NGN': '1535.50', 'USDC:ZAR': '17.85', 'USDC:GHS': '15.40', 'USDC:UGX': '3680', 'USDC:TZS': '2590',
  'USDC:ZMW': '26.40', 'USDC:XOF': '602', 'USDC:XAF': '602', 'USDC:ETB': '138.60',
  'USDT:KES': '129.20', 'USDT:NGN': '1534.80', 'USDT:ZAR': '17.84', 'USDT:GHS': '15.38', 'USDT:UGX': '3678', 'USDT:TZS': '2588',
  'USDT:ZMW': '26.38', 'USDT:XOF': '601.50', 'USDT:XAF': '601.50', 'USDT:ETB': '138.50',
};

/**
 * Starts a simulator of Coinbase's keyless `GET /v2/exchange-rates?currency=<base>`
 * (https://docs.cdp.coinbase.com/coinbase-app/track-apis/exchange-rates): `{data: {currency, rates}}`
 * with every rate a decimal string, and no timestamp in the body: the rates' time is the `Date`
 * header, which `stale` mode sets in the past. An unknown base is 400 with Coinbase's v2 error
 * body `{errors: [{id, message}]}`. Rates are keyed `<base>:<currency>`; modes as in rate-sim.ts.
 */
export function startCoinbaseSimulator(options: { port?: number; host?: string; rates?: Record<string, string> } = {}): Promise<RateSimulator> {
  return startRateSimulator({ ...options, rates: options.rates ?? COINBASE_SIM_DEFAULT_RATES }, (state, url, res) => {
    if (url.pathname !== '/v2/exchange-rates') return false;
    const base = (url.searchParams.get('currency') ?? 'USD').toUpperCase();
    const now = new Date();
    const rates: Record<string, string> = {};
    let at = now;
    for (const symbol of state.symbols().filter((s) => s.startsWith(`${base}:`))) {
      const price = state.price(symbol, now)!;
      rates[symbol.slice(base.length + 1)] = price.rate;
      at = price.at;
    }
    if (Object.keys(rates).length === 0) {
      send(res, 400, { errors: [{ id: 'invalid_request', message: `Invalid currency (${base})` }] });
      return true;
    }
    send(res, 200, { data: { currency: base, rates } }, { date: at.toUTCString() });
    return true;
  }, { errors: [{ id: 'internal_server_error', message: 'Service unavailable' }] });
}
