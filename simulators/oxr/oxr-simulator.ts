import Decimal from 'decimal.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { send, startRateSimulator, type RateSimulator, type RateSimState } from '../rate-sim/rate-sim';

/** The simulator's development App ID (32 hexadecimal characters, like a real one; no real account). */
export const OXR_SIM_APP_ID = '0000000000000000000000000051c0de';

/** USD rates it starts with: units of each currency per 1 USD (the catalog's, roughly). */
export const OXR_SIM_DEFAULT_RATES: Readonly<Record<string, string>> = {
  KES: '129.3', NGN: '1535.9', ZAR: '17.86', GHS: '15.41', UGX: '3681.5', TZS: '2591', ZMW: '26.41', XOF: '602.2', XAF: '602.2', ETB: '138.7',
};

/**
 * The documented errors (https://docs.openexchangerates.org/docs/errors): message → HTTP status and
 * a description like the page's.
 */
export const OXR_SIM_ERRORS: Readonly<Record<string, { readonly status: number; readonly description: string }>> = {
  not_found: { status: 404, description: 'Client requested a non-existent resource/route.' },
  missing_app_id: { status: 401, description: 'No App ID provided. Please sign up at https://openexchangerates.org/signup.' },
  invalid_app_id: { status: 401, description: 'Invalid App ID provided. Please sign up at https://openexchangerates.org/signup.' },
  not_allowed: { status: 429, description: "Client doesn't have permission to access requested route/feature." },
  access_restricted: { status: 403, description: 'Access restricted until 2026-12-01 (reason: too many requests).' },
  invalid_base: { status: 400, description: 'Client requested rates for an unsupported base currency.' },
};

/** A running Open Exchange Rates simulator: `baseUrl` (with `/api`) is what RATES_OXR_BASE_URL takes. */
export interface OxrSimulator extends RateSimulator {
  readonly baseUrl: string;
  /** Answers the next `latest.json` call with a documented error (`status` overrides the documented one, e.g. access_restricted 429). */
  failNext(message: string, status?: number): void;
}

/**
 * Starts a simulator of Open Exchange Rates' `GET /api/latest.json`
 * (https://docs.openexchangerates.org/reference/latest-json): `{disclaimer, license, timestamp
 * (Unix seconds), base: "USD", rates}` with every rate a JSON number, limited by `symbols`. The App
 * ID is read from `app_id`, else from `Authorization: Token <id>` (the URL wins when both are sent,
 * https://docs.openexchangerates.org/docs/authentication); none is 401 `missing_app_id`, another is
 * 401 `invalid_app_id`; a `base` other than USD is 400 `invalid_base`; each in the documented error
 * body. `POST /__simulator/error` (`{"message", "status"?}`) queues one documented error for the next
 * call. Rates are keyed by currency (units per 1 USD); modes as in rate-sim.ts.
 */
export async function startOxrSimulator(options: { port?: number; host?: string; rates?: Record<string, string>; appId?: string } = {}): Promise<OxrSimulator> {
  const appId = options.appId ?? OXR_SIM_APP_ID;
  const queued: { message: string; status?: number }[] = [];
  const sim = await startRateSimulator({ ...options, rates: options.rates ?? OXR_SIM_DEFAULT_RATES }, (state, url, res, req) => {
    if (url.pathname !== '/api/latest.json') return false;
    const next = queued.shift();
    const given = url.searchParams.get('app_id') ?? tokenOf(req);
    if (next) fail(res, next.message, next.status);
    else if (!given) fail(res, 'missing_app_id');
    else if (given !== appId) fail(res, 'invalid_app_id');
    else if ((url.searchParams.get('base') ?? 'USD') !== 'USD') fail(res, 'invalid_base');
    else answer(state, url, res);
    return true;
  }, 'Service Unavailable', (url, body, res) => {
    if (url.pathname !== '/__simulator/error') return false;
    const { message, status } = (body ?? {}) as { message?: string; status?: number };
    if (!message || !Object.hasOwn(OXR_SIM_ERRORS, message)) send(res, 400, { error: `message must be one of ${Object.keys(OXR_SIM_ERRORS).join(', ')}` });
    else {
      queued.push({ message, status });
      send(res, 200, { queued: queued.length });
    }
    return true;
  });
  return { ...sim, baseUrl: `${sim.url}/api`, failNext: (message, status) => void queued.push({ message, status }) };
}

function tokenOf(req: IncomingMessage): string | undefined {
  return /^Token (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
}

function fail(res: ServerResponse, message: string, status?: number): void {
  const documented = OXR_SIM_ERRORS[message]!;
  send(res, status ?? documented.status, { error: true, status: status ?? documented.status, message, description: documented.description });
}

/** The latest rates, written by hand so each rate is a JSON number with the digits set (as Open Exchange Rates sends them). */
function answer(state: RateSimState, url: URL, res: ServerResponse): void {
  const symbols = url.searchParams.get('symbols')?.split(',').map((s) => s.trim().toUpperCase());
  const now = new Date();
  let at = now;
  const rates: string[] = [];
  for (const symbol of state.symbols().filter((s) => !symbols || symbols.includes(s))) {
    const price = state.price(symbol, now)!;
    rates.push(`${JSON.stringify(symbol)}: ${new Decimal(price.rate).toFixed()}`);
    at = price.at;
  }
  const head = JSON.stringify({ disclaimer: 'Usage subject to terms: https://openexchangerates.org/terms', license: 'https://openexchangerates.org/license' });
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
  res.end(`${head.slice(0, -1)}, "timestamp": ${Math.floor(at.getTime() / 1000)}, "base": "USD", "rates": {${rates.join(', ')}}}`);
}
