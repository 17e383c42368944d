import proxyaddr from 'proxy-addr';
import { z } from 'zod';

/** A configuration of the pawaPay provider the service refuses to start with; never holds a secret's value. */
export class PawapayConfigError extends Error {}

const REQUIRED = ['PAWAPAY_BASE_URL', 'PAWAPAY_API_TOKEN', 'PAWAPAY_ENVIRONMENT', 'PAWAPAY_CALLBACK_SECRET'] as const;
const OPTIONAL = ['PAWAPAY_CALLBACK_ALLOWED_IPS', 'PAWAPAY_CONNECT_TIMEOUT_MS', 'PAWAPAY_RESPONSE_TIMEOUT_MS', 'PAWAPAY_POLL_INTERVAL_MS'] as const;

/** pawaPay's two environments (https://docs.pawapay.io/using_the_api, "Where is the API?"). */
export const PAWAPAY_ENVIRONMENTS = ['sandbox', 'production'] as const;
export type PawapayEnvironment = (typeof PAWAPAY_ENVIRONMENTS)[number];

/** A production API token shorter than this is not one pawaPay's Dashboard issues (they are long signed tokens). */
const MIN_PRODUCTION_TOKEN_LENGTH = 32;

const ms = (min: number, max: number, fallback: number) => z.coerce.number().int().min(min).max(max).default(fallback);
const httpUrl = z.string().url().refine((v) => /^https?:\/\//.test(v), 'must be an http(s) URL').transform((v) => v.replace(/\/+$/, ''));

const schema = z.object({
  PAWAPAY_BASE_URL: httpUrl,
  PAWAPAY_API_TOKEN: z.string().min(1).refine((v) => !/\s/.test(v), 'must be the API token without spaces'),
  PAWAPAY_ENVIRONMENT: z.enum(PAWAPAY_ENVIRONMENTS),
  PAWAPAY_CALLBACK_SECRET: z.string().regex(/^[A-Za-z0-9_-]{32,128}$/, 'must be 32 to 128 letters, digits, _ or -'),
  PAWAPAY_CALLBACK_ALLOWED_IPS: z.string().default('').transform((v) => v.split(',').map((p) => p.trim()).filter(Boolean))
    .refine((list) => {
      try {
        proxyaddr.compile(list);
        return true;
      } catch {
        return false;
      }
    }, 'must be a comma-separated list of addresses and CIDR ranges'),
  PAWAPAY_CONNECT_TIMEOUT_MS: ms(100, 60_000, 5000),
  PAWAPAY_RESPONSE_TIMEOUT_MS: ms(100, 120_000, 20_000),
  PAWAPAY_POLL_INTERVAL_MS: ms(100, 3_600_000, 300_000),
});

/** The parsed pawaPay configuration (milliseconds for every duration). */
export interface PawapayConfig {
  /** `https://api.sandbox.pawapay.io` or `https://api.pawapay.io` (or a simulator), without a trailing slash. */
  readonly baseUrl: string;
  /** The Bearer token from the pawaPay Dashboard (https://docs.pawapay.io/using_the_api, "Authentication"). */
  readonly apiToken: string;
  readonly environment: PawapayEnvironment;
  /** The last path segment of the callback URL set in the pawaPay Dashboard: `<public origin>/callbacks/pawapay/<secret>`. */
  readonly callbackSecret: string;
  /** Addresses and CIDR ranges callbacks may come from; empty (any source) only in the sandbox. */
  readonly callbackAllowedIps: readonly string[];
  readonly connectTimeoutMs: number;
  readonly responseTimeoutMs: number;
  /** How long a pending payout waits before its status is asked again. */
  readonly pollIntervalMs: number;
}

/**
 * Reads the PAWAPAY_* variables from `env`. Returns `undefined` when none is set (the provider is
 * off), the configuration when every required one is valid, and throws one PawapayConfigError naming
 * every missing or invalid variable otherwise (partial credentials stop the start). Production
 * rules: an https base URL, a token of at least 32 characters, and a non-empty
 * PAWAPAY_CALLBACK_ALLOWED_IPS (pawaPay publishes its callback addresses,
 * https://docs.pawapay.io/using_the_api, "IP whitelisting").
 */
export function parsePawapayConfig(env: Record<string, string | undefined>): PawapayConfig | undefined {
  const present = (name: string) => env[name] !== undefined && env[name] !== '';
  if (![...REQUIRED, ...OPTIONAL].some(present)) return undefined;
  const missing = REQUIRED.filter((name) => !present(name));
  if (missing.length > 0) throw new PawapayConfigError(`pawaPay is partly configured: missing ${missing.join(', ')}`);
  const values = Object.fromEntries([...REQUIRED, ...OPTIONAL].filter(present).map((name) => [name, env[name]]));
  const parsed = schema.safeParse(values);
  if (!parsed.success) {
    // Only variable names and rule texts: zod's issues never echo the input here.
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new PawapayConfigError(`Invalid pawaPay configuration: ${problems.join('; ')}`);
  }
  const v = parsed.data;
  const problems: string[] = [];
  if (v.PAWAPAY_ENVIRONMENT === 'production') {
    if (!v.PAWAPAY_BASE_URL.startsWith('https://')) problems.push('PAWAPAY_BASE_URL must be https in production');
    if (v.PAWAPAY_API_TOKEN.length < MIN_PRODUCTION_TOKEN_LENGTH) problems.push(`PAWAPAY_API_TOKEN is too short for a production token (at least ${MIN_PRODUCTION_TOKEN_LENGTH} characters)`);
    if (v.PAWAPAY_CALLBACK_ALLOWED_IPS.length === 0) problems.push('PAWAPAY_CALLBACK_ALLOWED_IPS is required in production');
  }
  if (problems.length > 0) throw new PawapayConfigError(`Invalid pawaPay configuration: ${problems.join('; ')}`);
  return {
    baseUrl: v.PAWAPAY_BASE_URL,
    apiToken: v.PAWAPAY_API_TOKEN,
    environment: v.PAWAPAY_ENVIRONMENT,
    callbackSecret: v.PAWAPAY_CALLBACK_SECRET,
    callbackAllowedIps: v.PAWAPAY_CALLBACK_ALLOWED_IPS,
    connectTimeoutMs: v.PAWAPAY_CONNECT_TIMEOUT_MS,
    responseTimeoutMs: v.PAWAPAY_RESPONSE_TIMEOUT_MS,
    pollIntervalMs: v.PAWAPAY_POLL_INTERVAL_MS,
  };
}
