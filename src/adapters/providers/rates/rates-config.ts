import { z } from 'zod';
import type { SpreadTable } from '../../../core/quotes/spread';
import { COINBASE_DEFAULT_BASE_URL } from './coinbase-rate-feed';
import { LUNO_DEFAULT_BASE_URL } from './luno-rate-feed';
import { OXR_DEFAULT_BASE_URL } from './oxr-rate-feed';
import { VALR_DEFAULT_BASE_URL } from './valr-rate-feed';
import { parseVenueMarkets } from './venue-pairs';

/** The rate sources an operator can turn on (docs/providers.md § Rates). */
export const RATE_SOURCES = ['coinbase', 'luno', 'valr', 'oxr'] as const;
export type RateSourceName = (typeof RATE_SOURCES)[number];

/**
 * Oldest a source's own timestamp may be when RATES_SOURCE_MAX_AGE_SECONDS does not name it, over
 * RATES_MAX_AGE_SECONDS: Open Exchange Rates publishes hourly on most plans
 * (https://openexchangerates.org/faq, "How often are rates collected?"), so its rate is up to an
 * hour old before its next one is read (docs/providers.md § Rates: coverage).
 */
export const SOURCE_DEFAULT_MAX_AGE_SECONDS: Readonly<Partial<Record<RateSourceName, number>>> = { oxr: 4500 };

const percent = (fallback: string) => z.string().regex(/^\d{1,2}(\.\d{1,4})?$/, 'must be a percentage from 0 to 99.9999, e.g. 2 or 0.5').default(fallback);
const url = (fallback: string) => z.url().refine((text) => /^https?:\/\//.test(text), 'must be an http(s) URL').default(fallback);
/** A venue's market list, parsed at start: a bad symbol stops the start naming it (public symbols, nothing to hide). */
const markets = (variable: string, fallback: string) => z.string().default(fallback).transform((text, ctx) => {
  try {
    return parseVenueMarkets(text, variable);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message.replace(`${variable}: `, '') });
    return z.NEVER;
  }
});
const entries = (text: string) => text.split(',').map((item) => item.trim()).filter((item) => item !== '');

/**
 * The live-rate variables (README "Configuration"; docs/decisions.md § FX quotes: live rates), with
 * their defaults. No source in RATES_SOURCES leaves every tenant on the catalog's rates, as before.
 */
export const ratesEnvSchema = z.object({
  RATES_SOURCES: z.string().default('').transform((text, ctx) => {
    const names = entries(text);
    for (const name of names) {
      if (!(RATE_SOURCES as readonly string[]).includes(name)) ctx.addIssue({ code: 'custom', message: `"${name}" is not one of ${RATE_SOURCES.join(', ')}` });
    }
    return [...new Set(names)] as RateSourceName[];
  }),
  RATES_COINBASE_BASE_URL: url(COINBASE_DEFAULT_BASE_URL),
  RATES_LUNO_BASE_URL: url(LUNO_DEFAULT_BASE_URL),
  RATES_VALR_BASE_URL: url(VALR_DEFAULT_BASE_URL),
  RATES_OXR_BASE_URL: url(OXR_DEFAULT_BASE_URL),
  // 32 hexadecimal characters (https://docs.openexchangerates.org/docs/authentication); the message never repeats the value.
  RATES_OXR_APP_ID: z.string().regex(/^[0-9a-fA-F]{32}$/, 'must be an Open Exchange Rates App ID: 32 hexadecimal characters').optional(),
  // Every latest.json call counts against the plan's monthly quota; 600 s is 4,320 calls in 30 days per replica (docs/providers.md § Rates: coverage).
  RATES_OXR_INTERVAL_SECONDS: z.coerce.number().int().min(0).max(86_400).default(600),
  RATES_LUNO_MARKETS: markets('RATES_LUNO_MARKETS', 'USDCZAR,USDTZAR,USDCNGN,USDTNGN'),
  RATES_VALR_MARKETS: markets('RATES_VALR_MARKETS', 'USDCZAR,USDTZAR'),
  RATES_REFRESH_INTERVAL_MS: z.coerce.number().int().min(50).max(600_000).default(15_000),
  RATES_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5_000),
  RATES_MAX_AGE_SECONDS: z.coerce.number().int().min(1).max(86_400).default(120),
  RATES_SOURCE_MAX_AGE_SECONDS: z.string().default('').transform((text, ctx) => {
    const ages: Record<string, number> = Object.fromEntries(Object.entries(SOURCE_DEFAULT_MAX_AGE_SECONDS).map(([source, seconds]) => [source, seconds * 1000]));
    for (const item of entries(text)) {
      const match = /^([a-z]+)=(\d{1,5})$/.exec(item);
      if (!match || !(RATE_SOURCES as readonly string[]).includes(match[1]!)) ctx.addIssue({ code: 'custom', message: `"${item}" is not <source>=<seconds>` });
      else ages[match[1]!] = Number(match[2]) * 1000;
    }
    return ages;
  }),
  RATES_QUORUM: z.coerce.number().int().min(1).max(10).default(2),
  // Per pair, over RATES_QUORUM: `USDCKES=1,USDTKES=1` (docs/decisions.md § FX quotes: live rates, coverage).
  RATES_PAIR_QUORUMS: z.string().default('').transform((text, ctx) => {
    const quorums: Record<string, number> = {};
    for (const item of entries(text)) {
      const match = /^([A-Za-z]+)=(\d{1,2})$/.exec(item);
      const quorum = Number(match?.[2]);
      let pair: string | undefined;
      try {
        const [market] = match ? parseVenueMarkets(match[1]!, 'RATES_PAIR_QUORUMS') : [];
        pair = market ? `${market.stablecoin}/${market.fiat}` : undefined;
      } catch {
        pair = undefined;
      }
      if (!pair || quorum < 1 || quorum > 10) ctx.addIssue({ code: 'custom', message: `"${item}" is not <stablecoin><fiat>=<quorum 1 to 10>, e.g. USDCKES=1` });
      else quorums[pair] = quorum;
    }
    return quorums;
  }),
  RATES_BAND_PERCENT: percent('2'),
  RATES_JUMP_PERCENT: percent('5'),
  RATES_JUMP_WINDOW_MINUTES: z.coerce.number().int().min(1).max(1440).default(10),
  RATES_SPREAD_PERCENT: percent('0'),
  RATES_SPREADS: z.string().default('').transform((text, ctx) => {
    const byCorridor: Record<string, string> = {};
    for (const item of entries(text)) {
      const match = /^([A-Z]{2}|\*):([A-Z]+)=(\d{1,2}(?:\.\d{1,4})?)$/.exec(item);
      if (!match) ctx.addIssue({ code: 'custom', message: `"${item}" is not <country or *>:<method>=<percent>, e.g. KE:MOMO=0.5` });
      else byCorridor[`${match[1]}:${match[2]}`] = match[3]!;
    }
    return byCorridor;
  }),
});
export type RatesEnv = z.infer<typeof ratesEnvSchema>;

/**
 * The rules between the rate variables (README "Configuration"): a source that needs a key is not
 * turned on without it. Each problem names the variable missing (`variables`), never a value.
 */
export function ratesConfigProblems(env: Pick<RatesEnv, 'RATES_SOURCES' | 'RATES_OXR_APP_ID'>): { variables: string[]; message: string }[] {
  return env.RATES_SOURCES.includes('oxr') && env.RATES_OXR_APP_ID === undefined
    ? [{ variables: ['RATES_OXR_APP_ID'], message: 'RATES_OXR_APP_ID is required when RATES_SOURCES names oxr (the Open Exchange Rates App ID)' }]
    : [];
}

/** The spread table of RATES_SPREAD_PERCENT and RATES_SPREADS. */
export function spreadTableOf(env: RatesEnv): SpreadTable {
  return { default: env.RATES_SPREAD_PERCENT, byCorridor: env.RATES_SPREADS };
}
