import { isIP } from 'node:net';
import { z } from 'zod';

/**
 * The source addresses Paystack documents for its webhooks, "applicable to both test and live";
 * requests from other addresses are "a counterfeit" (https://paystack.com/docs/payments/webhooks/,
 * "IP whitelisting"). The default of PAYSTACK_WEBHOOK_ALLOWED_IPS.
 */
export const PAYSTACK_DOCUMENTED_WEBHOOK_IPS = ['52.31.139.75', '52.49.173.169', '52.214.14.220'] as const;

/** Paystack's API host, for test and live keys alike (official OpenAPI `servers`). */
export const PAYSTACK_DEFAULT_BASE_URL = 'https://api.paystack.co';

/** Variables that turn the provider on: set none of them, or all of them. */
const REQUIRED = ['PAYSTACK_SECRET_KEY'] as const;
/** Variables with defaults; setting one without the required ones is a partial configuration. */
const OPTIONAL = [
  'PAYSTACK_BASE_URL', 'PAYSTACK_WEBHOOK_ALLOWED_IPS', 'PAYSTACK_WEBHOOK_ALLOW_ANY_IP', 'PAYSTACK_CONNECT_TIMEOUT_MS',
  'PAYSTACK_RESPONSE_TIMEOUT_MS', 'PAYSTACK_RESULT_WAIT_MS',
] as const;

const ipList = z.string().transform((text, ctx) => {
  const items = text.split(',').map((item) => item.trim()).filter((item) => item !== '');
  for (const item of items) {
    if (isIP(item) === 0) ctx.addIssue({ code: 'custom', message: `"${item}" is not an IP address` });
  }
  return items;
});
const ms = (fallback: number) => z.coerce.number().int().min(100).max(120_000).default(fallback);

/**
 * The Paystack variables (docs/decisions.md § Personal data and secrets: the secret key is never
 * logged nor echoed in an error). Keys are `sk_test_…` or `sk_live_…`
 * (https://paystack.com/docs/transfers/single-transfers/, "API keys"); a public `pk_` key is refused.
 */
export const paystackEnvSchema = z.object({
  PAYSTACK_SECRET_KEY: z.string().regex(/^sk_(test|live)_[A-Za-z0-9]+$/, 'must look like sk_test_… or sk_live_…'),
  PAYSTACK_BASE_URL: z.url().refine((url) => /^https?:\/\//.test(url), 'must be an http(s) URL').default(PAYSTACK_DEFAULT_BASE_URL),
  // Unset: Paystack's documented addresses; an empty list only through PAYSTACK_WEBHOOK_ALLOW_ANY_IP.
  PAYSTACK_WEBHOOK_ALLOWED_IPS: ipList.refine((items) => items.length > 0, 'must list at least one address (PAYSTACK_WEBHOOK_ALLOW_ANY_IP=true accepts any source)').optional(),
  PAYSTACK_WEBHOOK_ALLOW_ANY_IP: z.enum(['true', 'false'], 'must be true or false').default('false'),
  PAYSTACK_CONNECT_TIMEOUT_MS: ms(5_000),
  PAYSTACK_RESPONSE_TIMEOUT_MS: ms(30_000),
  PAYSTACK_RESULT_WAIT_MS: ms(60_000),
});

/** The validated Paystack settings. */
export interface PaystackConfig {
  /** `sk_test_…` or `sk_live_…`: authenticates API calls and signs webhooks. Never log it. */
  readonly secretKey: string;
  /** `live` for an `sk_live_` key, `test` otherwise. */
  readonly mode: 'test' | 'live';
  /** API base URL without a trailing slash (a simulator's URL in development and tests). */
  readonly baseUrl: string;
  /**
   * Webhook source addresses accepted: PAYSTACK_WEBHOOK_ALLOWED_IPS, Paystack's documented three
   * when unset; empty (any source, the signature alone decides) only with PAYSTACK_WEBHOOK_ALLOW_ANY_IP=true.
   */
  readonly webhookAllowedIps: readonly string[];
  /** TCP and TLS handshake limit, ms. */
  readonly connectTimeoutMs: number;
  /** Limit on waiting for the response headers, and between body chunks, ms. */
  readonly responseTimeoutMs: number;
  /** How long after an accepted transfer to wait for its webhook before asking verify, ms. */
  readonly resultWaitMs: number;
}

/** A Paystack configuration that cannot start: names the variables at fault, never their values. */
export class PaystackConfigError extends Error {
  override readonly name = 'PaystackConfigError';
}

/**
 * Reads the Paystack variables from `env` (docs/decisions.md § Running it; § Payout providers:
 * callbacks). Returns `undefined` when no PAYSTACK_ variable is set (the provider is off), the
 * configuration when the required ones are set and valid. Webhooks are accepted from
 * PAYSTACK_DOCUMENTED_WEBHOOK_IPS unless PAYSTACK_WEBHOOK_ALLOWED_IPS lists others, and from any
 * source only with the explicit PAYSTACK_WEBHOOK_ALLOW_ANY_IP=true. Throws `PaystackConfigError`
 * naming the missing or invalid variables when only some are set, one is malformed, or both
 * PAYSTACK_WEBHOOK_ALLOWED_IPS and PAYSTACK_WEBHOOK_ALLOW_ANY_IP=true are set: a partial or
 * contradictory configuration must stop the start.
 */
export function parsePaystackConfig(env: Readonly<Record<string, string | undefined>>): PaystackConfig | undefined {
  const present = (name: string) => env[name] !== undefined && env[name] !== '';
  const anySet = [...REQUIRED, ...OPTIONAL].some(present);
  if (!anySet) return undefined;
  const missing = REQUIRED.filter((name) => !present(name));
  if (missing.length > 0) {
    throw new PaystackConfigError(`Paystack is partly configured: set ${missing.join(', ')} (or unset every PAYSTACK_ variable)`);
  }
  const picked = Object.fromEntries([...REQUIRED, ...OPTIONAL].filter(present).map((name) => [name, env[name]]));
  const parsed = paystackEnvSchema.safeParse(picked);
  if (!parsed.success) {
    // Issue messages only: zod's own text would quote the offending value, which may be the key.
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new PaystackConfigError(`Invalid Paystack configuration: ${problems.join('; ')}`);
  }
  const value = parsed.data;
  const allowAny = value.PAYSTACK_WEBHOOK_ALLOW_ANY_IP === 'true';
  if (allowAny && value.PAYSTACK_WEBHOOK_ALLOWED_IPS) {
    throw new PaystackConfigError('Invalid Paystack configuration: set PAYSTACK_WEBHOOK_ALLOWED_IPS or PAYSTACK_WEBHOOK_ALLOW_ANY_IP=true, not both');
  }
  return {
    secretKey: value.PAYSTACK_SECRET_KEY,
    mode: value.PAYSTACK_SECRET_KEY.startsWith('sk_live_') ? 'live' : 'test',
    baseUrl: value.PAYSTACK_BASE_URL.replace(/\/+$/, ''),
    webhookAllowedIps: allowAny ? [] : value.PAYSTACK_WEBHOOK_ALLOWED_IPS ?? PAYSTACK_DOCUMENTED_WEBHOOK_IPS,
    connectTimeoutMs: value.PAYSTACK_CONNECT_TIMEOUT_MS,
    responseTimeoutMs: value.PAYSTACK_RESPONSE_TIMEOUT_MS,
    resultWaitMs: value.PAYSTACK_RESULT_WAIT_MS,
  };
}
