import proxyaddr from 'proxy-addr';
import { z } from 'zod';
import { MTN_MOMO_TARGET_ENVIRONMENTS, type MtnMomoTargetEnvironment } from './mtn-momo-markets';

/** A configuration of the MTN MoMo provider the service refuses to start with; never holds a secret's value. */
export class MtnMomoConfigError extends Error {}

const REQUIRED = [
  'MTN_MOMO_BASE_URL', 'MTN_MOMO_SUBSCRIPTION_KEY', 'MTN_MOMO_API_USER', 'MTN_MOMO_API_KEY',
  'MTN_MOMO_TARGET_ENVIRONMENT', 'MTN_MOMO_CALLBACK_BASE_URL', 'MTN_MOMO_CALLBACK_SECRET',
] as const;
const OPTIONAL = [
  'MTN_MOMO_CALLBACK_ALLOWED_IPS', 'MTN_MOMO_SANDBOX_CURRENCY', 'MTN_MOMO_CONNECT_TIMEOUT_MS',
  'MTN_MOMO_RESPONSE_TIMEOUT_MS', 'MTN_MOMO_POLL_INTERVAL_MS',
] as const;

const ms = (min: number, max: number, fallback: number) => z.coerce.number().int().min(min).max(max).default(fallback);
const httpUrl = z.string().url().refine((v) => /^https?:\/\//.test(v), 'must be an http(s) URL').transform((v) => v.replace(/\/+$/, ''));

/**
 * The MTN MoMo Disbursements variables (docs/decisions.md § Personal data and secrets for the
 * secrets). The API user is the UUID MTN issues (sandbox: `POST /v1_0/apiuser`; production: the
 * partner portal); the subscription key is the Disbursements product's `Ocp-Apim-Subscription-Key`.
 */
const schema = z.object({
  MTN_MOMO_BASE_URL: httpUrl,
  MTN_MOMO_SUBSCRIPTION_KEY: z.string().min(1),
  MTN_MOMO_API_USER: z.string().uuid('must be the API user UUID'),
  MTN_MOMO_API_KEY: z.string().min(1),
  MTN_MOMO_TARGET_ENVIRONMENT: z.enum(MTN_MOMO_TARGET_ENVIRONMENTS),
  MTN_MOMO_CALLBACK_BASE_URL: httpUrl,
  MTN_MOMO_CALLBACK_SECRET: z.string().regex(/^[A-Za-z0-9_-]{32,128}$/, 'must be 32 to 128 letters, digits, _ or -'),
  MTN_MOMO_CALLBACK_ALLOWED_IPS: z.string().default('').transform((v) => v.split(',').map((p) => p.trim()).filter(Boolean))
    .refine((list) => {
      try {
        proxyaddr.compile(list);
        return true;
      } catch {
        return false;
      }
    }, 'must be a comma-separated list of addresses and CIDR ranges'),
  MTN_MOMO_SANDBOX_CURRENCY: z.literal('EUR', 'must be EUR, the only currency of the MTN sandbox').optional(),
  MTN_MOMO_CONNECT_TIMEOUT_MS: ms(100, 60_000, 5000),
  MTN_MOMO_RESPONSE_TIMEOUT_MS: ms(100, 120_000, 20_000),
  MTN_MOMO_POLL_INTERVAL_MS: ms(100, 3_600_000, 300_000),
});

/** The parsed MTN MoMo configuration (milliseconds for every duration). */
export interface MtnMomoConfig {
  readonly baseUrl: string;
  readonly subscriptionKey: string;
  readonly apiUser: string;
  readonly apiKey: string;
  readonly targetEnvironment: MtnMomoTargetEnvironment;
  /** Our public callback route without the secret; `X-Callback-Url` is `<this>/<callbackSecret>`. */
  readonly callbackBaseUrl: string;
  readonly callbackSecret: string;
  /** Addresses and CIDR ranges callbacks may come from; empty (any source) only in the sandbox. */
  readonly callbackAllowedIps: readonly string[];
  /** The currency sent in the sandbox instead of the destination currency (EUR); unset in production. */
  readonly sandboxCurrency: 'EUR' | undefined;
  readonly connectTimeoutMs: number;
  readonly responseTimeoutMs: number;
  /** How long a pending transfer waits before its status is asked again. */
  readonly pollIntervalMs: number;
}

/**
 * Reads the MTN_MOMO_* variables from `env`. Returns `undefined` when none is set (the provider is
 * off), the configuration when every required one is valid, and throws one MtnMomoConfigError naming
 * every missing or invalid variable otherwise (partial credentials stop the start). Rules beyond the
 * shapes: the sandbox needs MTN_MOMO_SANDBOX_CURRENCY=EUR (MTN's sandbox takes only EUR), production
 * refuses it, needs an https callback (MTN: "Only https is allowed on production") and a non-empty
 * MTN_MOMO_CALLBACK_ALLOWED_IPS (callbacks are unsigned).
 */
export function parseMtnMomoConfig(env: Record<string, string | undefined>): MtnMomoConfig | undefined {
  const present = (name: string) => env[name] !== undefined && env[name] !== '';
  if (![...REQUIRED, ...OPTIONAL].some(present)) return undefined;
  const missing = REQUIRED.filter((name) => !present(name));
  if (missing.length > 0) {
    throw new MtnMomoConfigError(`MTN MoMo is partly configured: missing ${missing.join(', ')}`);
  }
  const values = Object.fromEntries([...REQUIRED, ...OPTIONAL].filter(present).map((name) => [name, env[name]]));
  const parsed = schema.safeParse(values);
  if (!parsed.success) {
    // Only variable names and rule texts: zod's issues never echo the input here.
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new MtnMomoConfigError(`Invalid MTN MoMo configuration: ${problems.join('; ')}`);
  }
  const v = parsed.data;
  const sandbox = v.MTN_MOMO_TARGET_ENVIRONMENT === 'sandbox';
  const problems: string[] = [];
  if (sandbox && !v.MTN_MOMO_SANDBOX_CURRENCY) problems.push('MTN_MOMO_SANDBOX_CURRENCY=EUR is required with the sandbox target environment (it accepts only EUR)');
  if (!sandbox && v.MTN_MOMO_SANDBOX_CURRENCY) problems.push('MTN_MOMO_SANDBOX_CURRENCY is only allowed with the sandbox target environment');
  if (!sandbox && !v.MTN_MOMO_CALLBACK_BASE_URL.startsWith('https://')) problems.push('MTN_MOMO_CALLBACK_BASE_URL must be https outside the sandbox');
  if (!sandbox && v.MTN_MOMO_CALLBACK_ALLOWED_IPS.length === 0) problems.push('MTN_MOMO_CALLBACK_ALLOWED_IPS is required outside the sandbox');
  if (problems.length > 0) throw new MtnMomoConfigError(`Invalid MTN MoMo configuration: ${problems.join('; ')}`);
  return {
    baseUrl: v.MTN_MOMO_BASE_URL,
    subscriptionKey: v.MTN_MOMO_SUBSCRIPTION_KEY,
    apiUser: v.MTN_MOMO_API_USER,
    apiKey: v.MTN_MOMO_API_KEY,
    targetEnvironment: v.MTN_MOMO_TARGET_ENVIRONMENT,
    callbackBaseUrl: v.MTN_MOMO_CALLBACK_BASE_URL,
    callbackSecret: v.MTN_MOMO_CALLBACK_SECRET,
    callbackAllowedIps: v.MTN_MOMO_CALLBACK_ALLOWED_IPS,
    sandboxCurrency: v.MTN_MOMO_SANDBOX_CURRENCY,
    connectTimeoutMs: v.MTN_MOMO_CONNECT_TIMEOUT_MS,
    responseTimeoutMs: v.MTN_MOMO_RESPONSE_TIMEOUT_MS,
    pollIntervalMs: v.MTN_MOMO_POLL_INTERVAL_MS,
  };
}
