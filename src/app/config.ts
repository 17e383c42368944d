import { z } from 'zod';
import { API_KEY_PATTERN } from '../core/auth/api-key';
import { compileProxyTrust } from '../adapters/access/client-address';
import type { ServerTimeouts } from '../adapters/http/http-server';
import { weakSecretProblems } from './key-strength';
import { parseMpesaConfig, type MpesaConfig } from '../adapters/providers/mpesa/mpesa-config';
import { parseMtnMomoConfig, type MtnMomoConfig } from '../adapters/providers/mtn-momo/mtn-momo-config';
import { parsePaystackConfig, type PaystackConfig } from '../adapters/providers/paystack/paystack-config';

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const int = (min: number) => z.coerce.number().int().min(min);
const apiKey = z.string().regex(API_KEY_PATTERN, 'must look like sk_<sandbox|live>_<32 to 64 letters and digits>');

/**
 * Every environment variable the service reads, with its default (README "Configuration").
 * Read once, here, at start; nothing else reads process.env.
 */
export const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  PORT: int(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().default('./.data'),
  EMBEDDED_DB_PORT: int(1).max(65535).default(54329),
  DB_POOL_MAX: int(1).default(10),
  CATALOG_PATH: z.string().default('data/corridors.json'),
  SERVICE_NAME: z.string().regex(/^[A-Z0-9]{2,20}$/).default('PAYOUT'),
  SANDBOX_API_KEY: apiKey.optional(),
  ADMIN_API_KEY: apiKey.optional(),
  QUOTE_TTL_SECONDS: int(1).default(60),
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
});

/**
 * The real payout providers' settings (docs/providers.md), each parsed by its
 * adapter's zod schema from its own variables (MPESA_*, MTN_MOMO_*, PAYSTACK_*). A provider whose
 * variables are all unset is off (undefined).
 */
export interface PayoutProviderConfigs {
  readonly mpesa?: MpesaConfig;
  readonly mtnMomo?: MtnMomoConfig;
  readonly paystack?: PaystackConfig;
}

export type Config = z.infer<typeof configSchema> & {
  /** Real payout providers; none configured leaves live tenants without payouts (503 provider_unavailable). */
  readonly payoutProviders: PayoutProviderConfigs;
};

/** A configuration the service refuses; its message lists every problem and never a secret's value. */
export class ConfigError extends Error {}

/** Parses `env` (normally process.env); throws one ConfigError listing every bad variable. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = configSchema.safeParse(cleaned);
  if (!parsed.success) throw new ConfigError(`Invalid configuration:\n${z.prettifyError(parsed.error)}`);
  if (parsed.data.NODE_ENV === 'production' && parsed.data.WEBHOOK_ALLOW_PRIVATE_TARGETS) {
    throw new ConfigError('Invalid configuration: WEBHOOK_ALLOW_PRIVATE_TARGETS must be off in production');
  }
  if (parsed.data.HTTP_HEADERS_TIMEOUT_MS > parsed.data.HTTP_REQUEST_TIMEOUT_MS) {
    throw new ConfigError('Invalid configuration: HTTP_HEADERS_TIMEOUT_MS must not exceed HTTP_REQUEST_TIMEOUT_MS');
  }
  const payoutProviders = payoutProviderConfigs(cleaned);
  // Guessable keys and callback path secrets are refused where they guard real money
  // (docs/decisions.md § Authentication, tenants and keys; § Payout providers: callbacks).
  const weak = parsed.data.NODE_ENV === 'production'
    ? weakSecretProblems({
      ...parsed.data,
      MPESA_CALLBACK_PATH_SECRET: payoutProviders.mpesa?.callbackPathSecret,
      MTN_MOMO_CALLBACK_SECRET: payoutProviders.mtnMomo?.callbackSecret,
    })
    : [];
  if (weak.length > 0) throw new ConfigError(`Invalid configuration:\n${weak.map((p) => `✖ ${p}`).join('\n')}`);
  return { ...parsed.data, payoutProviders };
}

/**
 * Reads every real provider's variables; a provider with partial or invalid settings stops the
 * start. One ConfigError lists every such provider; the adapters' messages name variables, never
 * values, so no secret reaches the log.
 */
function payoutProviderConfigs(env: Record<string, string | undefined>): PayoutProviderConfigs {
  const problems: string[] = [];
  const read = <T>(parse: () => T | undefined): T | undefined => {
    try {
      return parse();
    } catch (error) {
      problems.push((error as Error).message);
      return undefined;
    }
  };
  const configs = {
    mpesa: read(() => parseMpesaConfig(env)),
    mtnMomo: read(() => parseMtnMomoConfig(env)),
    paystack: read(() => parsePaystackConfig(env)),
  };
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n${problems.map((p) => `✖ ${p}`).join('\n')}`);
  return Object.fromEntries(Object.entries(configs).filter(([, v]) => v !== undefined)) as PayoutProviderConfigs;
}

/** The HTTP server's timeouts from HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS and HTTP_KEEP_ALIVE_TIMEOUT_MS (ms). */
export function httpTimeouts(config: Config): ServerTimeouts {
  return { headersMs: config.HTTP_HEADERS_TIMEOUT_MS, requestMs: config.HTTP_REQUEST_TIMEOUT_MS, keepAliveMs: config.HTTP_KEEP_ALIVE_TIMEOUT_MS };
}
