import { isIP } from 'node:net';
import { z } from 'zod';

/** Flutterwave's v3 API host, for test and live keys alike (https://developer.flutterwave.com/reference/endpoints/transfers/). */
export const FLUTTERWAVE_DEFAULT_BASE_URL = 'https://api.flutterwave.com';

/** Variables that turn the provider on: set none of them, or all of them. */
const REQUIRED = [
  'FLUTTERWAVE_SECRET_KEY', 'FLUTTERWAVE_WEBHOOK_SECRET_HASH',
  'FLUTTERWAVE_SENDER_NAME', 'FLUTTERWAVE_SENDER_COUNTRY', 'FLUTTERWAVE_SENDER_MOBILE',
] as const;
/** Variables with defaults; setting one without the required ones is a partial configuration. */
const OPTIONAL = [
  'FLUTTERWAVE_BASE_URL', 'FLUTTERWAVE_WEBHOOK_ALLOWED_IPS', 'FLUTTERWAVE_CONNECT_TIMEOUT_MS',
  'FLUTTERWAVE_RESPONSE_TIMEOUT_MS', 'FLUTTERWAVE_RESULT_WAIT_MS',
] as const;
/** Variables whose values must never appear in a message. */
const SECRET = new Set<string>(['FLUTTERWAVE_SECRET_KEY', 'FLUTTERWAVE_WEBHOOK_SECRET_HASH']);

const ipList = z.string().transform((text, ctx) => {
  const items = text.split(',').map((item) => item.trim()).filter((item) => item !== '');
  for (const item of items) {
    if (isIP(item) === 0) ctx.addIssue({ code: 'custom', message: `"${item}" is not an IP address` });
  }
  return items;
});
const ms = (fallback: number) => z.coerce.number().int().min(100).max(120_000).default(fallback);

/**
 * The Flutterwave variables (docs/decisions.md § Personal data and secrets: neither secret is ever
 * logged nor echoed in an error). Secret keys are `FLWSECK_TEST-…-X` (test mode) or `FLWSECK-…-X`
 * (live) (https://developer.flutterwave.com/docs/authentication); a public `FLWPUBK` key is
 * refused. The secret hash is the value we choose and enter in the dashboard's webhook settings;
 * Flutterwave sends it back in the `verif-hash` header (https://developer.flutterwave.com/docs/webhooks).
 */
export const flutterwaveEnvSchema = z.object({
  FLUTTERWAVE_SECRET_KEY: z.string().regex(/^FLWSECK(_TEST)?-[A-Za-z0-9]+-X$/, 'must look like FLWSECK_TEST-…-X or FLWSECK-…-X'),
  FLUTTERWAVE_WEBHOOK_SECRET_HASH: z.string().min(16, 'must be at least 16 characters').max(256, 'must be at most 256 characters')
    .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces'),
  // The sender Flutterwave asks for on Kenyan M-Pesa transfers (`meta.sender`, `meta.sender_country`,
  // `meta.mobile_number`; https://developer.flutterwave.com/docs/making-payments/transfers/mobile-money/):
  // the company sending the payouts, its ISO 3166-1 alpha-2 country (the page's sample: "ZA") and
  // its number with the country code and no + (the sample: "23457558595").
  FLUTTERWAVE_SENDER_NAME: z.string().min(2, 'must be at least 2 characters').max(100, 'must be at most 100 characters')
    .refine((name) => ![...name].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f), 'must not contain control characters'),
  FLUTTERWAVE_SENDER_COUNTRY: z.string().regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code such as KE'),
  FLUTTERWAVE_SENDER_MOBILE: z.string().regex(/^[1-9]\d{6,14}$/, 'must be digits with the country code and no +, e.g. 254712345678'),
  FLUTTERWAVE_BASE_URL: z.url().refine((url) => /^https?:\/\//.test(url), 'must be an http(s) URL').default(FLUTTERWAVE_DEFAULT_BASE_URL),
  FLUTTERWAVE_WEBHOOK_ALLOWED_IPS: ipList.default([]),
  FLUTTERWAVE_CONNECT_TIMEOUT_MS: ms(5_000),
  FLUTTERWAVE_RESPONSE_TIMEOUT_MS: ms(30_000),
  FLUTTERWAVE_RESULT_WAIT_MS: ms(60_000),
});

/** The validated Flutterwave settings. */
export interface FlutterwaveConfig {
  /** `FLWSECK_TEST-…-X` or `FLWSECK-…-X`: authenticates every API call. Never log it. */
  readonly secretKey: string;
  /** `live` for a `FLWSECK-` key, `test` for `FLWSECK_TEST-`. */
  readonly mode: 'test' | 'live';
  /** The dashboard's webhook secret hash, compared with `verif-hash`. Never log it. */
  readonly webhookSecretHash: string;
  /** API base URL without a trailing slash and without `/v3` (a simulator's URL in development and tests). */
  readonly baseUrl: string;
  /** Webhook source addresses accepted; empty: any (Flutterwave publishes no webhook addresses). */
  readonly webhookAllowedIps: readonly string[];
  /** TCP and TLS handshake limit, ms. */
  readonly connectTimeoutMs: number;
  /** Limit on waiting for the response headers, and between body chunks, ms. */
  readonly responseTimeoutMs: number;
  /** How long after an accepted transfer to wait for its webhook before the first status query, ms. */
  readonly resultWaitMs: number;
  /** The sender sent in `meta` on Kenyan M-Pesa transfers: our company, not the issuer or recipient. */
  readonly sender: FlutterwaveSender;
}

/**
 * The sender of Kenyan M-Pesa transfers (https://developer.flutterwave.com/docs/making-payments/transfers/mobile-money/):
 * full name, ISO 3166-1 alpha-2 country, mobile number with country code and no +.
 */
export interface FlutterwaveSender {
  readonly name: string;
  readonly country: string;
  readonly mobileNumber: string;
}

/** A Flutterwave configuration that cannot start: names the variables at fault, never their values. */
export class FlutterwaveConfigError extends Error {
  override readonly name = 'FlutterwaveConfigError';
}

/**
 * Reads the Flutterwave variables from `env` (docs/providers.md § Flutterwave Transfers). Returns
 * `undefined` when no FLUTTERWAVE_ variable is set (the provider is off), the configuration when the
 * required ones are set and valid. Throws `FlutterwaveConfigError` naming the variables at fault when
 * only some are set or one is malformed, and, when NODE_ENV is production, when the base URL is not
 * https or the key is a test key. The secret hash's strength in production is checked with the
 * other secrets' (src/app/key-strength.ts).
 */
export function parseFlutterwaveConfig(env: Readonly<Record<string, string | undefined>>): FlutterwaveConfig | undefined {
  const present = (name: string) => (env[name] ?? '').trim() !== '';
  if (![...REQUIRED, ...OPTIONAL].some(present)) return undefined;
  const missing = REQUIRED.filter((name) => !present(name));
  if (missing.length > 0) {
    throw new FlutterwaveConfigError(`Flutterwave is partly configured: set ${missing.join(', ')} (or unset every FLUTTERWAVE_ variable)`);
  }
  const picked = Object.fromEntries([...REQUIRED, ...OPTIONAL].filter(present).map((name) => [name, env[name]!.trim()]));
  const parsed = flutterwaveEnvSchema.safeParse(picked);
  if (!parsed.success) {
    // Issue messages only, never zod's text, which could quote a secret.
    const problems = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0]);
      return SECRET.has(name) ? `${name} ${issue.message}` : `${name}: ${issue.message}`;
    });
    throw new FlutterwaveConfigError(`Invalid Flutterwave configuration: ${problems.join('; ')}`);
  }
  const v = parsed.data;
  const mode = v.FLUTTERWAVE_SECRET_KEY.startsWith('FLWSECK_TEST-') ? 'test' : 'live';
  if (env.NODE_ENV === 'production') {
    const problems = [
      ...(v.FLUTTERWAVE_BASE_URL.startsWith('https://') ? [] : ['FLUTTERWAVE_BASE_URL must be https in production (the secret key travels in every call)']),
      ...(mode === 'live' ? [] : ['FLUTTERWAVE_SECRET_KEY must be a live key (FLWSECK-…) in production']),
    ];
    if (problems.length > 0) throw new FlutterwaveConfigError(`Invalid Flutterwave configuration: ${problems.join('; ')}`);
  }
  return {
    secretKey: v.FLUTTERWAVE_SECRET_KEY,
    mode,
    webhookSecretHash: v.FLUTTERWAVE_WEBHOOK_SECRET_HASH,
    baseUrl: v.FLUTTERWAVE_BASE_URL.replace(/\/+$/, ''),
    webhookAllowedIps: v.FLUTTERWAVE_WEBHOOK_ALLOWED_IPS,
    connectTimeoutMs: v.FLUTTERWAVE_CONNECT_TIMEOUT_MS,
    responseTimeoutMs: v.FLUTTERWAVE_RESPONSE_TIMEOUT_MS,
    resultWaitMs: v.FLUTTERWAVE_RESULT_WAIT_MS,
    sender: { name: v.FLUTTERWAVE_SENDER_NAME, country: v.FLUTTERWAVE_SENDER_COUNTRY, mobileNumber: v.FLUTTERWAVE_SENDER_MOBILE },
  };
}
