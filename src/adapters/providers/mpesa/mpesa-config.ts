import { readFileSync } from 'node:fs';
import proxyaddr from 'proxy-addr';
import { z } from 'zod';

/**
 * Environment variables of the M-Pesa Daraja provider (docs/decisions.md § Personal data and secrets).
 * All of the required ones or none: none leaves the provider off; some is a start error.
 */
const REQUIRED = [
  'MPESA_BASE_URL', 'MPESA_CONSUMER_KEY', 'MPESA_CONSUMER_SECRET', 'MPESA_SHORTCODE',
  'MPESA_INITIATOR_NAME', 'MPESA_INITIATOR_PASSWORD', 'MPESA_CERTIFICATE_PATH',
  'MPESA_CALLBACK_BASE_URL', 'MPESA_CALLBACK_PATH_SECRET',
] as const;
const OPTIONAL = [
  'MPESA_B2B_SHORTCODE', 'MPESA_B2C_COMMAND_ID', 'MPESA_CALLBACK_ALLOWED_IPS',
  'MPESA_CONNECT_TIMEOUT_MS', 'MPESA_RESPONSE_TIMEOUT_MS', 'MPESA_RESULT_WAIT_MS',
] as const;
/** Values never echoed in an error message. */
const SECRET = new Set<string>(['MPESA_CONSUMER_KEY', 'MPESA_CONSUMER_SECRET', 'MPESA_INITIATOR_PASSWORD', 'MPESA_CALLBACK_PATH_SECRET']);

const httpUrl = z.string().url().refine((v) => /^https?:\/\//.test(v), 'must be an http(s) URL')
  .transform((v) => v.replace(/\/+$/, ''));
const shortcode = z.string().regex(/^\d{5,7}$/, 'must be an M-Pesa shortcode of 5 to 7 digits');
const ms = (fallback: number) => z.coerce.number().int().min(100).max(120_000).default(fallback);

const schema = z.object({
  MPESA_BASE_URL: httpUrl,
  MPESA_CONSUMER_KEY: z.string().min(1),
  MPESA_CONSUMER_SECRET: z.string().min(1),
  MPESA_SHORTCODE: shortcode,
  MPESA_B2B_SHORTCODE: shortcode.optional(),
  MPESA_INITIATOR_NAME: z.string().min(1),
  MPESA_INITIATOR_PASSWORD: z.string().min(1),
  MPESA_CERTIFICATE_PATH: z.string().min(1),
  MPESA_B2C_COMMAND_ID: z.enum(['BusinessPayment', 'SalaryPayment', 'PromotionPayment']).default('BusinessPayment'),
  MPESA_CALLBACK_BASE_URL: httpUrl,
  MPESA_CALLBACK_PATH_SECRET: z.string().regex(/^[A-Za-z0-9_-]{32,128}$/, 'must be 32 to 128 letters, digits, - or _ (unguessable)'),
  MPESA_CALLBACK_ALLOWED_IPS: z.string().default('').refine((v) => {
    try {
      allowListOf(v);
      return true;
    } catch {
      return false;
    }
  }, 'must be a comma-separated list of addresses or CIDR ranges'),
  MPESA_CONNECT_TIMEOUT_MS: ms(5_000),
  MPESA_RESPONSE_TIMEOUT_MS: ms(30_000),
  MPESA_RESULT_WAIT_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
});

/** The M-Pesa Daraja provider's settings, parsed from the environment. Times in milliseconds. */
export interface MpesaConfig {
  /** Daraja's origin: `https://sandbox.safaricom.co.ke`, `https://api.safaricom.co.ke`, or a simulator. */
  readonly baseUrl: string;
  readonly consumerKey: string;
  readonly consumerSecret: string;
  /** PartyA of B2C payments and of Transaction Status queries. */
  readonly shortcode: string;
  /** PartyA of B2B (PayBill, till) payments; the B2C shortcode unless set. */
  readonly b2bShortcode: string;
  readonly initiatorName: string;
  readonly initiatorPassword: string;
  /** The M-Pesa public key certificate (PEM or DER) or a PEM public key, as read from MPESA_CERTIFICATE_PATH. */
  readonly certificate: Buffer;
  readonly b2cCommandId: 'BusinessPayment' | 'SalaryPayment' | 'PromotionPayment';
  /** Public origin and path prefix our callback routes are reached at, without the secret. */
  readonly callbackBaseUrl: string;
  readonly callbackPathSecret: string;
  /** Source addresses allowed to post callbacks; `undefined` when none is configured (development). */
  readonly callbackAllowList?: (address: string) => boolean;
  readonly connectTimeoutMs: number;
  readonly responseTimeoutMs: number;
  /** How long after acceptance to wait for the result callback before asking Transaction Status. */
  readonly resultWaitMs: number;
}

/** An M-Pesa configuration the service refuses; its message names variables, never their values. */
export class MpesaConfigError extends Error {}

/**
 * Reads the M-Pesa variables from `env` (docs/decisions.md § Personal data and secrets). Returns
 * `undefined` when none of the required ones is set (the provider is off), the config when all are
 * valid. Throws MpesaConfigError naming every missing or invalid variable when only some are set,
 * when a value is invalid, when the certificate file cannot be read, or when NODE_ENV is
 * production and MPESA_CALLBACK_ALLOWED_IPS is empty (Daraja does not sign its callbacks) or
 * MPESA_CALLBACK_BASE_URL is not https (the path secret travels in every callback URL). The path
 * secret's strength in production is checked with the API keys' (src/app/key-strength.ts).
 */
export function parseMpesaConfig(
  env: Readonly<Record<string, string | undefined>>,
  readFile: (path: string) => Buffer = readFileSync,
): MpesaConfig | undefined {
  const present = (name: string) => (env[name] ?? '').trim() !== '';
  if (![...REQUIRED, ...OPTIONAL].some(present)) return undefined;
  const missing = REQUIRED.filter((name) => !present(name));
  if (missing.length > 0) {
    throw new MpesaConfigError(`M-Pesa is partly configured: set ${missing.join(', ')} (or unset every MPESA_ variable)`);
  }
  const picked = Object.fromEntries([...REQUIRED, ...OPTIONAL].filter(present).map((name) => [name, env[name]!.trim()]));
  const parsed = schema.safeParse(picked);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0]);
      return SECRET.has(name) ? `${name} is invalid` : `${name} ${issue.message}`;
    });
    throw new MpesaConfigError(`Invalid M-Pesa configuration: ${problems.join('; ')}`);
  }
  const v = parsed.data;
  if (env.NODE_ENV === 'production') {
    const problems = [
      ...(v.MPESA_CALLBACK_ALLOWED_IPS.trim() === '' ? ['MPESA_CALLBACK_ALLOWED_IPS must list Safaricom\'s callback addresses in production'] : []),
      ...(v.MPESA_CALLBACK_BASE_URL.startsWith('https://') ? [] : ['MPESA_CALLBACK_BASE_URL must be https in production (the path secret travels in it)']),
    ];
    if (problems.length > 0) throw new MpesaConfigError(`Invalid M-Pesa configuration: ${problems.join('; ')}`);
  }
  let certificate: Buffer;
  try {
    certificate = readFile(v.MPESA_CERTIFICATE_PATH);
  } catch {
    throw new MpesaConfigError('MPESA_CERTIFICATE_PATH cannot be read');
  }
  return {
    baseUrl: v.MPESA_BASE_URL,
    consumerKey: v.MPESA_CONSUMER_KEY,
    consumerSecret: v.MPESA_CONSUMER_SECRET,
    shortcode: v.MPESA_SHORTCODE,
    b2bShortcode: v.MPESA_B2B_SHORTCODE ?? v.MPESA_SHORTCODE,
    initiatorName: v.MPESA_INITIATOR_NAME,
    initiatorPassword: v.MPESA_INITIATOR_PASSWORD,
    certificate,
    b2cCommandId: v.MPESA_B2C_COMMAND_ID,
    callbackBaseUrl: v.MPESA_CALLBACK_BASE_URL,
    callbackPathSecret: v.MPESA_CALLBACK_PATH_SECRET,
    callbackAllowList: allowListOf(v.MPESA_CALLBACK_ALLOWED_IPS),
    connectTimeoutMs: v.MPESA_CONNECT_TIMEOUT_MS,
    responseTimeoutMs: v.MPESA_RESPONSE_TIMEOUT_MS,
    resultWaitMs: v.MPESA_RESULT_WAIT_MS,
  };
}

/** Compiles a comma-separated list of addresses and CIDR ranges; `undefined` for an empty list. Throws on a bad entry. */
function allowListOf(list: string): ((address: string) => boolean) | undefined {
  const entries = list.split(',').map((part) => part.trim()).filter((part) => part !== '');
  if (entries.length === 0) return undefined;
  const trusted = proxyaddr.compile(entries);
  return (address) => {
    try {
      return trusted(address, 0);
    } catch {
      return false;
    }
  };
}
