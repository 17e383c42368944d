import { z } from 'zod';

/** Variables that turn Smile ID on: set none of them, or all of them. */
const REQUIRED = ['SMILE_ID_PARTNER_ID', 'SMILE_ID_API_KEY', 'SMILE_ID_BASE_URL', 'SMILE_ID_CALLBACK_BASE_URL', 'SMILE_ID_CALLBACK_SECRET'] as const;
/** Variables with defaults; setting one without the required ones is a partial configuration. */
const OPTIONAL = [
  'SMILE_ID_CONNECT_TIMEOUT_MS', 'SMILE_ID_RESPONSE_TIMEOUT_MS', 'SMILE_ID_POLL_MS', 'SMILE_ID_AUTHORITY_ATTEMPTS',
  'SMILE_ID_AUTHORITY_RETRY_MS', 'SMILE_ID_HELD_RECHECK_MS',
] as const;

const ms = (fallback: number, max = 120_000) => z.coerce.number().int().min(100).max(max).default(fallback);
const httpUrl = z.url().refine((url) => /^https?:\/\//.test(url), 'must be an http(s) URL');

/**
 * The Smile ID variables (docs/providers.md § Smile ID; the API key is never logged nor echoed in an
 * error). The partner id is the portal's, as a string ("085"): it goes into the signed message as
 * given (https://docs.usesmileid.com/integration-options/rest-api/signing-your-api-request/generate-signature).
 * The base URL includes `/v1`: https://testapi.smileidentity.com/v1 (sandbox) or
 * https://api.smileidentity.com/v1 (production); the API key belongs to one of the two.
 */
export const smileIdEnvSchema = z.object({
  SMILE_ID_PARTNER_ID: z.string().regex(/^\d{1,10}$/, 'must be the numeric partner id from the Smile ID portal'),
  SMILE_ID_API_KEY: z.string().min(16, 'must be the API key from the Smile ID portal').max(512).regex(/^\S+$/, 'must not contain spaces'),
  SMILE_ID_BASE_URL: httpUrl,
  SMILE_ID_CALLBACK_BASE_URL: httpUrl,
  SMILE_ID_CALLBACK_SECRET: z.string().regex(/^[A-Za-z0-9_-]{24,128}$/, 'must be 24 to 128 letters, digits, - or _'),
  SMILE_ID_CONNECT_TIMEOUT_MS: ms(5_000),
  SMILE_ID_RESPONSE_TIMEOUT_MS: ms(30_000),
  SMILE_ID_POLL_MS: ms(60_000, 3_600_000),
  SMILE_ID_AUTHORITY_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(4),
  SMILE_ID_AUTHORITY_RETRY_MS: ms(60_000, 3_600_000),
  SMILE_ID_HELD_RECHECK_MS: ms(6 * 3_600_000, 7 * 86_400_000),
});

/** The validated Smile ID settings. */
export interface SmileIdConfig {
  /** As the portal shows it, e.g. "085". */
  readonly partnerId: string;
  /** Signs our requests and Smile ID's answers and callbacks. Never log it. */
  readonly apiKey: string;
  /** API base URL including `/v1`, without a trailing slash (a simulator's URL in development and tests). */
  readonly baseUrl: string;
  /** Where Smile ID posts job results: `<SMILE_ID_CALLBACK_BASE_URL>/<SMILE_ID_CALLBACK_SECRET>`. */
  readonly callbackUrl: string;
  /** The path secret of `callbackUrl`; a callback on another path is refused. */
  readonly callbackSecret: string;
  /** TCP and TLS handshake limit, ms. */
  readonly connectTimeoutMs: number;
  /** Limit on waiting for the response headers, and between body chunks, ms. */
  readonly responseTimeoutMs: number;
  /** How long after a submission to ask the job status when no callback woke us, ms. */
  readonly pollMs: number;
  /** Jobs submitted for one customer while the ID authority answers "unavailable" (1015), first included. */
  readonly authorityAttempts: number;
  /** Wait before the second attempt, ms; each later wait doubles. */
  readonly authorityRetryMs: number;
  /** Wait before looking again at a customer left pending with a reason, ms. */
  readonly heldRecheckMs: number;
}

/** A Smile ID configuration that cannot start: names the variables at fault, never their values. */
export class SmileIdConfigError extends Error {
  override readonly name = 'SmileIdConfigError';
}

/**
 * Reads the Smile ID variables from `env` (docs/providers.md § Smile ID). Returns `undefined` when
 * no SMILE_ID_ variable is set (live KYC is off), the configuration when the required ones are set
 * and valid. Throws `SmileIdConfigError` naming the missing or invalid variables when only some are
 * set or one is malformed: a partial configuration must stop the start.
 */
export function parseSmileIdConfig(env: Readonly<Record<string, string | undefined>>): SmileIdConfig | undefined {
  const present = (name: string) => env[name] !== undefined && env[name] !== '';
  if (![...REQUIRED, ...OPTIONAL].some(present)) return undefined;
  const missing = REQUIRED.filter((name) => !present(name));
  if (missing.length > 0) {
    throw new SmileIdConfigError(`Smile ID is partly configured: set ${missing.join(', ')} (or unset every SMILE_ID_ variable)`);
  }
  const picked = Object.fromEntries([...REQUIRED, ...OPTIONAL].filter(present).map((name) => [name, env[name]]));
  const parsed = smileIdEnvSchema.safeParse(picked);
  if (!parsed.success) {
    // Issue messages only: zod's own text could quote the offending value, which may be the key.
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new SmileIdConfigError(`Invalid Smile ID configuration: ${problems.join('; ')}`);
  }
  const value = parsed.data;
  return {
    partnerId: value.SMILE_ID_PARTNER_ID,
    apiKey: value.SMILE_ID_API_KEY,
    baseUrl: value.SMILE_ID_BASE_URL.replace(/\/+$/, ''),
    callbackUrl: `${value.SMILE_ID_CALLBACK_BASE_URL.replace(/\/+$/, '')}/${value.SMILE_ID_CALLBACK_SECRET}`,
    callbackSecret: value.SMILE_ID_CALLBACK_SECRET,
    connectTimeoutMs: value.SMILE_ID_CONNECT_TIMEOUT_MS,
    responseTimeoutMs: value.SMILE_ID_RESPONSE_TIMEOUT_MS,
    pollMs: value.SMILE_ID_POLL_MS,
    authorityAttempts: value.SMILE_ID_AUTHORITY_ATTEMPTS,
    authorityRetryMs: value.SMILE_ID_AUTHORITY_RETRY_MS,
    heldRecheckMs: value.SMILE_ID_HELD_RECHECK_MS,
  };
}
