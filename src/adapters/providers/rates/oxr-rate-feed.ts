import { z } from 'zod';
import type { FeedRate, FeedReading, RateFeed, RatePair } from '../../../core/quotes/rate-feed';
import type { Clock } from '../../../core/shared/clock';
import { Decimal } from '../../../core/shared/money';
import { decimalText, numbersAsText, type RateHttpClient } from './rate-http';

/** Open Exchange Rates' API root (https://docs.openexchangerates.org/reference/latest-json). */
export const OXR_DEFAULT_BASE_URL = 'https://openexchangerates.org/api';

/**
 * The error `message` words Open Exchange Rates documents, with the HTTP status it names for each
 * and what it means for us (https://docs.openexchangerates.org/docs/errors, "Error Status Codes
 * Reference"): `not_found` 404, `missing_app_id` 401, `invalid_app_id` 401, `not_allowed` 429,
 * `access_restricted` 403 (or 429 for repeated over-use), `invalid_base` 400.
 */
export const OXR_DOCUMENTED_ERRORS: Readonly<Record<string, string>> = {
  not_found: 'route not found (check RATES_OXR_BASE_URL)',
  missing_app_id: 'no App ID sent (RATES_OXR_APP_ID)',
  invalid_app_id: 'App ID refused (RATES_OXR_APP_ID)',
  not_allowed: 'the plan does not allow this route or feature',
  access_restricted: 'access restricted (over-use, or the reason on the Open Exchange Rates dashboard)',
  invalid_base: 'base currency refused (the free plan has USD only)',
};

/**
 * The body of `GET /api/latest.json` (https://docs.openexchangerates.org/reference/latest-json),
 * read with its numbers as their literal text (`numbersAsText`): `base` the currency every rate is
 * relative to (USD, the only base of the free plan), `timestamp` the time the rates were published
 * in Unix seconds, `rates` units of each currency per 1 base unit (JSON numbers). `disclaimer` and
 * `license` are not read.
 */
const latestBody = z.object({
  base: z.string(),
  timestamp: z.string().regex(/^\d{1,12}$/),
  rates: z.record(z.string(), z.unknown()),
});

/** The documented error body (https://docs.openexchangerates.org/docs/errors): `{error: true, status, message, description}`. */
const errorBody = z.object({ error: z.literal(true), status: z.number().int(), message: z.string(), description: z.string() });

/** Settings of the Open Exchange Rates feed (RATES_OXR_*). */
export interface OxrFeedSettings {
  readonly baseUrl: string;
  /** The App ID (32 hexadecimal characters). Sent only in the `Authorization` header; never logged nor returned in a problem. */
  readonly appId: string;
  /** Least time between two calls, ms (RATES_OXR_INTERVAL_SECONDS): every call counts against the plan's monthly quota. 0: every read calls. */
  readonly intervalMs: number;
}

/**
 * Open Exchange Rates' reference rates (docs/providers.md § Rates): one `GET /latest.json` brings
 * USD→fiat for every catalog currency, timed by the body's own `timestamp` (when Open Exchange Rates
 * published them; hourly on most plans). USD stands for both USDC and USDT (docs/decisions.md § FX
 * quotes: live rates, "Open Exchange Rates"): every rate is given for each configured pair of its
 * currency. The App ID travels as `Authorization: Token <id>` (https://docs.openexchangerates.org/docs/authentication,
 * "HTTP Header Authentication"), so it is in no URL. Calls are spaced by `intervalMs` to stay within
 * the plan's quota: a read before then answers no rates and no problem, and the book keeps the last
 * rates until their own timestamp is too old. A documented error answers its `message` word and our
 * meaning of it, never the body.
 */
export class OxrRateFeed implements RateFeed {
  readonly name = 'oxr';
  private nextCallAt: number | undefined;

  constructor(private readonly http: RateHttpClient, private readonly settings: OxrFeedSettings, readonly pairs: readonly RatePair[], private readonly clock: Clock) {}

  async read(): Promise<FeedReading> {
    const now = this.clock.now().getTime();
    if (this.nextCallAt !== undefined && now < this.nextCallAt) return { rates: [], problems: [] };
    this.nextCallAt = now + this.settings.intervalMs;
    const fiats = [...new Set(this.pairs.map((p) => p.fiat))];
    const url = new URL('latest.json', this.settings.baseUrl.replace(/\/*$/, '/'));
    // `symbols` limits the answer to our currencies; available on every plan (latest-json page, "Additional Parameters").
    url.searchParams.set('symbols', fiats.join(','));
    const call = await this.http.get(url, { authorization: `Token ${this.settings.appId}` });
    if (call.kind === 'failed') return { rates: [], problems: [call.reason] };
    if (call.httpStatus !== 200) return { rates: [], problems: [errorProblem(call.httpStatus, call.body)] };
    const parsed = latestBody.safeParse(numbersAsText(call.text));
    if (!parsed.success) return { rates: [], problems: ['HTTP 200 without latest rates'] };
    if (parsed.data.base !== 'USD') return { rates: [], problems: [`answered rates for base ${parsed.data.base}, not USD`] };
    const at = new Date(Number(parsed.data.timestamp) * 1000);
    const rates: FeedRate[] = [];
    const problems: string[] = [];
    for (const fiat of fiats) {
      const rate = decimalText(plainDecimal(parsed.data.rates[fiat]));
      if (!rate) problems.push(`USD/${fiat}: no rate`);
      else for (const pair of this.pairs.filter((p) => p.fiat === fiat)) rates.push({ ...pair, rate, at });
    }
    return { rates, problems };
  }
}

/** The problem of a refused call: the status, and the documented `message` word with our meaning of it (never the free-text `description`). */
function errorProblem(httpStatus: number, body: unknown): string {
  const parsed = errorBody.safeParse(body);
  const word = parsed.success && Object.hasOwn(OXR_DOCUMENTED_ERRORS, parsed.data.message) ? parsed.data.message : undefined;
  return word ? `HTTP ${httpStatus} ${word}: ${OXR_DOCUMENTED_ERRORS[word]}` : `HTTP ${httpStatus} without a documented error`;
}

/** A number literal's text as a plain decimal (`1.5e2` → `150`), else the value unchanged. */
function plainDecimal(value: unknown): unknown {
  return typeof value === 'string' && /^\d+(\.\d+)?[eE][+-]?\d+$/.test(value) ? new Decimal(value).toFixed() : value;
}
