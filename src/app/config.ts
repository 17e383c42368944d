import { z } from 'zod';
import { API_KEY_PATTERN } from '../core/auth/api-key';
import { compileProxyTrust } from '../adapters/access/client-address';
import type { ServerTimeouts } from '../adapters/http/http-server';
import { weakSecretProblems } from './key-strength';
import { parseRoleMap } from '../adapters/access/oidc-sign-in';
import { defaultLogFormat, LOG_FORMATS, type LogFormat } from './logger';
import { parseMpesaConfig, type MpesaConfig } from '../adapters/providers/mpesa/mpesa-config';
import { parseMtnMomoConfig, type MtnMomoConfig } from '../adapters/providers/mtn-momo/mtn-momo-config';
import { parsePawapayConfig, type PawapayConfig } from '../adapters/providers/pawapay/pawapay-config';
import { parsePaystackConfig, type PaystackConfig } from '../adapters/providers/paystack/paystack-config';
import { parseFlutterwaveConfig, type FlutterwaveConfig } from '../adapters/providers/flutterwave/flutterwave-config';
import { ratesConfigProblems, ratesEnvSchema } from '../adapters/providers/rates/rates-config';
import { parseSmileIdConfig, type SmileIdConfig } from '../adapters/providers/smile-id/smile-id-config';

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const int = (min: number) => z.coerce.number().int().min(min);
const apiKey = z.string().regex(API_KEY_PATTERN, 'must look like sk_<sandbox|live>_<32 to 64 letters and digits>');
const evmAddress = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be 0x and 40 hexadecimal digits');
const solanaAddress = z.string().regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, 'must be a base58 address');
const decimalString = z.string().regex(/^\d{1,30}(\.\d{1,18})?$/, 'must be a decimal number such as 0.05 (no sign, no exponent)');

/**
 * Every environment variable the service reads, with its default (README "Configuration").
 * Read once, here, at start; nothing else reads process.env.
 */
export const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  PORT: int(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // Unset: pretty in development, json otherwise (defaultLogFormat); pretty is refused in production (docs/decisions.md § Running it).
  LOG_FORMAT: z.enum(LOG_FORMATS).optional(),
  // The commit the build was made from, for the build_info metric (README "Metrics and health").
  BUILD_COMMIT: z.string().regex(/^[0-9a-f]{7,40}$/, 'must be a git commit hash: 7 to 40 lower-case hex digits').optional(),
  DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().default('./.data'),
  EMBEDDED_DB_PORT: int(1).max(65535).default(54329),
  DB_POOL_MAX: int(1).default(10),
  CATALOG_PATH: z.string().default('data/corridors.json'),
  SERVICE_NAME: z.string().regex(/^[A-Z0-9]{2,20}$/).default('PAYOUT'),
  SANDBOX_API_KEY: apiKey.optional(),
  ADMIN_API_KEY: apiKey.optional(),
  QUOTE_TTL_SECONDS: int(1).default(60),
  // Sanctions screening (docs/decisions.md § Screening): the Jaro-Winkler similarity at or above which a name is held for review,
  // whether live money-outs are refused while no list is loaded (unset: only in production), the list age that is a readiness
  // warning, and how often each replica checks the stored lists for a new load.
  SCREENING_NAME_THRESHOLD: z.coerce.number().min(0.8).max(1).default(0.92),
  SCREENING_REQUIRED: bool.optional(),
  SCREENING_MAX_AGE_DAYS: int(1).default(7),
  SCREENING_RELOAD_SECONDS: int(1).default(60),
  IDEMPOTENCY_TTL_HOURS: int(1).default(24),
  SANDBOX_ACCEPT_DELAY_MS: int(0).default(1000),
  SANDBOX_RESULT_DELAY_MS: int(0).default(2000),
  WORKER_ENABLED: bool.default(true),
  WORKER_POLL_INTERVAL_MS: int(10).default(200),
  WORKER_BATCH_SIZE: int(1).max(1000).default(50),
  WORKER_LEASE_MS: int(100).default(30_000),
  WORKER_MAX_IDLE_MS: int(10).default(30_000),
  BODY_LIMIT: z.string().default('1mb'),
  AUTH_CACHE_TTL_MS: int(0).max(60_000).default(5000),
  RATE_LIMIT_PER_MINUTE: int(0).default(600),
  AUTH_FAILURES_PER_MINUTE: int(0).default(30),
  // Operator sessions (docs/decisions.md § Operators: sign-in, sessions, roles, audit log): idle and absolute timeouts, seconds.
  OPERATOR_SESSION_IDLE_S: int(60).default(1800),
  OPERATOR_SESSION_ABSOLUTE_S: int(300).default(43_200),
  // A payment at provider_accepted longer than this (minutes) is counted stuck on the operator console.
  OPERATOR_STUCK_PAYMENT_MINUTES: int(1).default(60),
  // Operator sign-in with the company's identity provider (docs/operations.md § Operators); all four or none.
  OIDC_ISSUER_URL: z.string().url().optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  OIDC_REDIRECT_URI: z.string().url().optional(),
  OIDC_SCOPES: z.string().default('openid email profile'),
  OIDC_ROLE_CLAIM: z.string().min(1).default('groups'),
  // `<claim value>=<viewer|operator|admin>` pairs, comma-separated, e.g. `payout-admins=admin,payout-support=viewer`.
  OIDC_ROLE_MAP: z.string().default(''),
  CALLBACK_RATE_LIMIT_PER_MINUTE: int(0).default(3000),
  REDIS_URL: z.string().url().refine((v) => /^rediss?:\/\//.test(v), 'must be a redis:// or rediss:// URL').optional(),
  REDIS_KEY_PREFIX: z.string().max(64).default('payout:'),
  TRUST_PROXY: z.string().refine((v) => {
    try {
      compileProxyTrust(v);
      return true;
    } catch {
      return false;
    }
  }, 'must be false, true, a number of hops, or a comma-separated list of addresses, CIDR ranges, loopback, linklocal, uniquelocal').default('false'),
  HTTP_HEADERS_TIMEOUT_MS: int(100).default(10_000),
  HTTP_REQUEST_TIMEOUT_MS: int(100).default(30_000),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: int(100).default(5000),
  WS_MAX_CONNECTIONS_PER_KEY: int(1).default(20),
  KYC_SANDBOX_DELAY_MS: int(0).default(1000),
  TRANSFER_LINK_TTL_SECONDS: int(60).max(7 * 86_400).default(1800),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: bool.default(false),
  WEBHOOK_SECRET_KEY: z.string().refine((v) => Buffer.from(v, 'base64').length === 32, 'must be base64 of 32 bytes').optional(),
  WEBHOOK_RETRY_SCHEDULE_MS: z.string().regex(/^\d+(,\d+)*$/, 'comma-separated milliseconds').optional(),
  WEBHOOK_WORKER_ENABLED: bool.default(true),
  WEBHOOK_TIMEOUT_MS: int(100).max(60_000).default(15_000),
  WEBHOOK_POLL_INTERVAL_MS: int(10).default(100),
  WEBHOOK_BATCH_SIZE: int(1).max(1000).default(200),
  WEBHOOK_CONNECT_TIMEOUT_MS: int(100).max(60_000).default(3000),
  WEBHOOK_ENDPOINT_CONCURRENCY: int(1).max(100).default(16),
  WEBHOOK_MAX_IN_FLIGHT: int(1).max(10_000).default(2000),
  WEBHOOK_ORDER_WAIT_MS: int(0).default(600_000),
  WEBHOOK_MAX_REGISTRATIONS_PER_TENANT: int(0).max(1000).default(10),
  WEBHOOK_ALLOWED_PORTS: z.string().regex(/^\d{1,5}(,\d{1,5})*$/, 'comma-separated port numbers')
    .transform((v) => v.split(',').map(Number))
    .refine((ports) => ports.every((p) => p >= 1 && p <= 65535), 'ports are 1..65535')
    .optional(),
  // Production writes generated first-start keys here (mode 0600) instead of printing them (docs/decisions.md § Running it).
  KEYS_FILE: z.string().optional(),
  SHUTDOWN_GRACE_MS: int(0).max(300_000).default(10_000),
  // The reconciliation worker (docs/decisions.md § Reconciliation): a payment provider_accepted for
  // longer than STUCK_AFTER gets a status query, asked again every RECHECK while it stays pending.
  RECONCILIATION_STUCK_AFTER_SECONDS: int(1).default(1800),
  RECONCILIATION_RECHECK_SECONDS: int(1).default(900),
  RECONCILIATION_POLL_INTERVAL_MS: int(10).default(60_000),
  // Circuit breaker of each real payout provider (docs/decisions.md § Payout providers: routing and failover).
  PROVIDER_BREAKER_FAILURES: int(1).max(1000).default(5),
  PROVIDER_BREAKER_HALF_OPEN_MS: int(100).max(3_600_000).default(30_000),
  PROVIDER_CALL_TIMEOUT_MS: int(100).max(300_000).default(60_000),
  // Routing on measured success (docs/decisions.md § Payout providers: routing on measured success):
  // the sliding window and its buckets, the minimum sample, the hedged share, the rate band, the
  // rate assumed below the minimum sample.
  ROUTING_WINDOW_MS: int(60_000).max(86_400_000).default(900_000),
  ROUTING_BUCKET_MS: int(1000).max(3_600_000).default(60_000),
  ROUTING_MIN_SAMPLES: int(1).max(100_000).default(20),
  ROUTING_HEDGE_PERCENT: int(0).max(50).default(5),
  ROUTING_BAND_POINTS: int(1).max(50).default(2),
  ROUTING_NEUTRAL_SUCCESS_PERCENT: int(0).max(100).default(90),
  // Onchain deposits (docs/decisions.md § Onchain deposits): each configured chain's watcher waits
  // CHAIN_WATCH_INTERVAL_MS between passes once caught up, under a lease of CHAIN_WATCH_LEASE_MS.
  CHAIN_WATCHER_ENABLED: bool.default(true),
  CHAIN_WATCH_INTERVAL_MS: int(50).max(600_000).default(500),
  CHAIN_WATCH_LEASE_MS: int(1000).max(3_600_000).default(30_000),
  // Onchain refunds (docs/operations.md § Refunds): one worker per hot wallet waits REFUND_INTERVAL_MS
  // between passes that changed nothing, under a lease of REFUND_LEASE_MS; none runs without a hot wallet.
  REFUND_WORKER_ENABLED: bool.default(true),
  REFUND_INTERVAL_MS: int(50).max(600_000).default(2_000),
  REFUND_LEASE_MS: int(1000).max(3_600_000).default(30_000),
  // A broadcast refund not in a block this long after signing is replaced with a higher fee (BSC; docs/decisions.md § Refunds).
  REFUND_REPLACE_AFTER_MS: int(1000).max(86_400_000).default(120_000),
  // Hot wallet balances as metrics (docs/operations.md § Refunds: balances and thresholds): read at most this often by the
  // lease holder; a balance below its low watermark (decimal string, whole coins or tokens; unset: none) sets refund_wallet_low.
  REFUND_BALANCE_INTERVAL_MS: int(1000).max(3_600_000).default(60_000),
  REFUND_GAS_LOW_WATERMARK_BNB: decimalString.optional(),
  REFUND_GAS_LOW_WATERMARK_SOL: decimalString.optional(),
  REFUND_TOKEN_LOW_WATERMARK_USDT: decimalString.optional(),
  REFUND_TOKEN_LOW_WATERMARK_USDC: decimalString.optional(),
  // The tokens credited, per network: the real contracts and mints by default (local chains deploy their own).
  BSC_USDT_CONTRACT: evmAddress.default('0x55d398326f99059fF775485246999027B3197955'),
  BSC_USDC_CONTRACT: evmAddress.default('0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d'),
  BSC_TOKEN_DECIMALS: int(0).max(77).default(18),
  SOLANA_USDC_MINT: solanaAddress.default('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'),
  SOLANA_USDT_MINT: solanaAddress.default('Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB'),
  SOLANA_TOKEN_DECIMALS: int(0).max(77).default(6),
  // Live FX rates (docs/decisions.md § FX quotes: live rates): sources, freshness, quorum, band, jump guard, spreads.
  ...ratesEnvSchema.shape,
});

/**
 * The real payout providers' settings (docs/providers.md), each parsed by its
 * adapter's zod schema from its own variables (MPESA_*, MTN_MOMO_*, PAYSTACK_*, FLUTTERWAVE_*, PAWAPAY_*). A provider whose
 * variables are all unset is off (undefined).
 */
export interface PayoutProviderConfigs {
  readonly mpesa?: MpesaConfig;
  readonly mtnMomo?: MtnMomoConfig;
  readonly paystack?: PaystackConfig;
  readonly flutterwave?: FlutterwaveConfig;
  readonly pawapay?: PawapayConfig;
}

export type Config = Omit<z.infer<typeof configSchema>, 'LOG_FORMAT'> & {
  /** LOG_FORMAT, or its default for NODE_ENV. */
  readonly LOG_FORMAT: LogFormat;
  /** Real payout providers; none configured leaves live tenants without payouts (503 provider_unavailable). */
  readonly payoutProviders: PayoutProviderConfigs;
  /** Live KYC (SMILE_ID_*, docs/providers.md § Smile ID); unset leaves live tenants' POST /v1/customers at 503. */
  readonly smileId?: SmileIdConfig;
  /** Every BSC_* and SOLANA_* variable as set, for the chain adapters' own parsers (src/app/chain-deposits.ts). */
  readonly chainVariables: Readonly<Record<string, string>>;
};

/** One reason a configuration is refused: its sentence (never a value) and the variables it names. */
export interface ConfigProblem {
  readonly variables: readonly string[];
  readonly message: string;
}

/**
 * A configuration the service refuses: `problems` lists every problem found, `variables` every
 * variable they name, and the message all of them, one per line; never a secret's value.
 */
export class ConfigError extends Error {
  constructor(readonly problems: readonly ConfigProblem[]) {
    super(`Invalid configuration:\n${problems.map((p) => `✖ ${p.message}`).join('\n')}`);
  }

  /** The variables at fault, each once, in the order the problems name them. */
  get variables(): string[] {
    return [...new Set(this.problems.flatMap((p) => p.variables))];
  }
}

/** Variable names as messages spell them: upper case, digits and at least one underscore. */
const VARIABLE_NAME = /\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g;

/** A problem whose sentence names its variables (the key-strength, provider and chain adapter checks' messages). */
export const namedProblem = (message: string): ConfigProblem => ({ variables: [...new Set(message.match(VARIABLE_NAME) ?? [])], message });

/**
 * Parses `env` (normally process.env); throws one ConfigError listing every problem found: each
 * variable's own rule, production's rules, the rules between variables, then every provider's.
 */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = configSchema.safeParse(cleaned);
  const providers = payoutProviderConfigs(cleaned);
  const problems: ConfigProblem[] = parsed.success ? [] : parsed.error.issues.map((issue) => {
    const variable = String(issue.path[0] ?? '');
    return { variables: variable ? [variable] : [], message: variable ? `${variable}: ${issue.message}` : issue.message };
  });
  let smileId: SmileIdConfig | undefined;
  const smileIdProblems: ConfigProblem[] = [];
  try {
    smileId = parseSmileIdConfig(cleaned);
  } catch (error) {
    smileIdProblems.push(namedProblem((error as Error).message));
  }
  // Read from the variables themselves, so they are reported beside any other variable's problem.
  const production = cleaned.NODE_ENV === 'production';
  // Without it webhook secrets would be sealed under a key generated on one machine (docs/decisions.md § Personal data and secrets).
  if (production && cleaned.WEBHOOK_SECRET_KEY === undefined) {
    problems.push({ variables: ['WEBHOOK_SECRET_KEY'], message: 'WEBHOOK_SECRET_KEY is required in production (base64 of 32 bytes: `npm run env:init` or `openssl rand -base64 32`)' });
  }
  // pino-pretty is a development dependency: the production image does not have it (docs/decisions.md § Running it).
  if (production && cleaned.LOG_FORMAT === 'pretty') {
    problems.push({ variables: ['LOG_FORMAT'], message: 'LOG_FORMAT=pretty is for development only: production logs JSON lines (unset LOG_FORMAT or set it to json)' });
  }
  if (parsed.success) {
    if (production && parsed.data.WEBHOOK_ALLOW_PRIVATE_TARGETS) {
      problems.push({ variables: ['WEBHOOK_ALLOW_PRIVATE_TARGETS'], message: 'WEBHOOK_ALLOW_PRIVATE_TARGETS must be off in production' });
    }
    if (parsed.data.HTTP_HEADERS_TIMEOUT_MS > parsed.data.HTTP_REQUEST_TIMEOUT_MS) {
      problems.push({ variables: ['HTTP_HEADERS_TIMEOUT_MS', 'HTTP_REQUEST_TIMEOUT_MS'], message: 'HTTP_HEADERS_TIMEOUT_MS must not exceed HTTP_REQUEST_TIMEOUT_MS' });
    }
    // Guessable keys are refused where they guard real money (docs/decisions.md § Authentication, tenants and keys),
    // and guessable callback path secrets (docs/decisions.md § Payout providers: callbacks).
    if (production) {
      problems.push(...weakSecretProblems({
        ...parsed.data,
        MPESA_CALLBACK_PATH_SECRET: providers.configs.mpesa?.callbackPathSecret,
        MTN_MOMO_CALLBACK_SECRET: providers.configs.mtnMomo?.callbackSecret,
        SMILE_ID_CALLBACK_SECRET: smileId?.callbackSecret,
        FLUTTERWAVE_WEBHOOK_SECRET_HASH: providers.configs.flutterwave?.webhookSecretHash,
        PAWAPAY_CALLBACK_SECRET: providers.configs.pawapay?.callbackSecret,
      }).map(namedProblem));
    }
  }
  // A lease shorter than two intervals would run out between the passes of a healthy watcher.
  if (parsed.success && parsed.data.CHAIN_WATCH_LEASE_MS < 2 * parsed.data.CHAIN_WATCH_INTERVAL_MS) {
    problems.push({ variables: ['CHAIN_WATCH_LEASE_MS', 'CHAIN_WATCH_INTERVAL_MS'], message: 'CHAIN_WATCH_LEASE_MS must be at least twice CHAIN_WATCH_INTERVAL_MS' });
  }
  if (parsed.success && parsed.data.REFUND_LEASE_MS < 2 * parsed.data.REFUND_INTERVAL_MS) {
    problems.push({ variables: ['REFUND_LEASE_MS', 'REFUND_INTERVAL_MS'], message: 'REFUND_LEASE_MS must be at least twice REFUND_INTERVAL_MS' });
  }
  if (parsed.success) problems.push(...ratesConfigProblems(parsed.data), ...oidcProblems(parsed.data));
  problems.push(...providers.problems, ...smileIdProblems);
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);
  const chainVariables = Object.fromEntries(Object.entries(cleaned).filter(([name]) => /^(BSC|SOLANA)_/.test(name))) as Record<string, string>;
  return {
    ...parsed.data, LOG_FORMAT: parsed.data.LOG_FORMAT ?? defaultLogFormat(parsed.data.NODE_ENV), payoutProviders: providers.configs, chainVariables,
    ...(smileId ? { smileId } : {}),
  };
}

/**
 * Reads every real provider's variables; a provider with partial or invalid settings is a problem
 * that stops the start. The adapters' messages name variables, never values, so no secret reaches the log.
 */
function payoutProviderConfigs(env: Record<string, string | undefined>): { configs: PayoutProviderConfigs; problems: ConfigProblem[] } {
  const problems: ConfigProblem[] = [];
  const read = <T>(parse: () => T | undefined): T | undefined => {
    try {
      return parse();
    } catch (error) {
      problems.push(namedProblem((error as Error).message));
      return undefined;
    }
  };
  const configs = {
    mpesa: read(() => parseMpesaConfig(env)),
    mtnMomo: read(() => parseMtnMomoConfig(env)),
    paystack: read(() => parsePaystackConfig(env)),
    flutterwave: read(() => parseFlutterwaveConfig(env)),
    pawapay: read(() => parsePawapayConfig(env)),
  };
  return { configs: Object.fromEntries(Object.entries(configs).filter(([, v]) => v !== undefined)) as PayoutProviderConfigs, problems };
}

const OIDC_REQUIRED = ['OIDC_ISSUER_URL', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET', 'OIDC_REDIRECT_URI'] as const;

/** OIDC_* set in part, a bad OIDC_ROLE_MAP, or a plain-http identity provider in production. */
function oidcProblems(c: z.infer<typeof configSchema>): ConfigProblem[] {
  const set = OIDC_REQUIRED.filter((name) => c[name] !== undefined);
  if (set.length === 0) return [];
  if (set.length < OIDC_REQUIRED.length) {
    const missing = OIDC_REQUIRED.filter((name) => c[name] === undefined);
    return [{ variables: missing, message: `${missing.join(', ')}: required with ${set.join(', ')} (operator sign-in through OpenID Connect)` }];
  }
  const problems: ConfigProblem[] = [];
  try {
    if (Object.keys(parseRoleMap(c.OIDC_ROLE_MAP)).length === 0) problems.push({ variables: ['OIDC_ROLE_MAP'], message: 'OIDC_ROLE_MAP: map at least one claim value to a role, e.g. payout-admins=admin' });
  } catch (error) {
    problems.push({ variables: ['OIDC_ROLE_MAP'], message: (error as Error).message });
  }
  if (c.NODE_ENV === 'production' && !c.OIDC_ISSUER_URL!.startsWith('https://')) {
    problems.push({ variables: ['OIDC_ISSUER_URL'], message: 'OIDC_ISSUER_URL must be https in production' });
  }
  return problems;
}

/** The HTTP server's timeouts from HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS and HTTP_KEEP_ALIVE_TIMEOUT_MS (ms). */
export function httpTimeouts(config: Config): ServerTimeouts {
  return { headersMs: config.HTTP_HEADERS_TIMEOUT_MS, requestMs: config.HTTP_REQUEST_TIMEOUT_MS, keepAliveMs: config.HTTP_KEEP_ALIVE_TIMEOUT_MS };
}
