import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino, { type Logger } from 'pino';
import { randomUUID } from 'node:crypto';
import { generateApiKey, storedKey } from '../../src/app/api-keys';
import { httpTimeouts, loadConfig, type Config } from '../../src/app/config';
import { buildContainer, type Container, type ContainerOverrides } from '../../src/app/container';
import { openDatabase, type Database } from '../../src/app/database';
import { sha256Hasher } from '../../src/adapters/providers/system';
import { newTenant } from '../../src/core/auth/tenant';
import { createHttpServer } from '../../src/adapters/http/http-server';

/** A running service on the test database, listening on a random local port. */
export interface TestService {
  readonly baseUrl: string;
  /** The listening HTTP server (graphql-ws is attached to it, as in main). */
  readonly server: Server;
  readonly container: Container;
  readonly database: Database;
  readonly config: Config;
  /** A new tenant with an issuer key, funded with `funding` of USDC and of USDT (default 1,000,000); returns the key in clear. */
  newTenant(funding?: string): Promise<{ tenantId: string; apiKey: string }>;
  /** An admin key (no tenant). */
  newAdminKey(): Promise<string>;
  /** fetch against the service with JSON helpers. */
  call(method: string, path: string, options?: CallOptions): Promise<CallResult>;
  close(): Promise<void>;
}

export interface CallOptions {
  apiKey?: string;
  body?: unknown;
  /** Raw body text, sent as is (for malformed JSON tests). */
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface CallResult {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

/** Test-only options that are not configuration. */
export interface TestServiceOptions {
  /** The service's logger (a captured pino destination); silent by default. */
  readonly logger?: Logger;
  /** Listen on this port (e.g. from freePort(), when callback URLs must be known before start); random by default. */
  readonly port?: number;
}

/** A TCP port free right now on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/**
 * Starts the real service (same wiring as main) against TEST_DATABASE_URL. `env` overrides
 * configuration; by default the sandbox is fast (50 ms delays) and the worker runs.
 */
export async function startTestService(
  env: Record<string, string> = {}, overrides: ContainerOverrides = {}, options: TestServiceOptions = {},
): Promise<TestService> {
  const config = loadConfig({
    DATABASE_URL: process.env.TEST_DATABASE_URL,
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    PORT: '0',
    HOST: '127.0.0.1',
    DB_POOL_MAX: '10',
    SANDBOX_ACCEPT_DELAY_MS: '50',
    SANDBOX_RESULT_DELAY_MS: '50',
    WORKER_POLL_INTERVAL_MS: '20',
    WEBHOOK_POLL_INTERVAL_MS: '20',
    // Its passes find nothing unless a suite shortens RECONCILIATION_STUCK_AFTER_SECONDS; a short poll keeps /health's heartbeat fresh.
    RECONCILIATION_POLL_INTERVAL_MS: '200',
    // Tests poll hard; the limit itself is tested with a tiny value of its own.
    RATE_LIMIT_PER_MINUTE: '100000',
    // Suites send many bad keys from 127.0.0.1; the throttle is tested with a small value of its own.
    AUTH_FAILURES_PER_MINUTE: '100000',
    // Provider simulators call back from 127.0.0.1; the per-address callback limit is tested with a small value of its own.
    CALLBACK_RATE_LIMIT_PER_MINUTE: '100000',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOK_SECRET_KEY: Buffer.alloc(32, 7).toString('base64'),
    ...env,
  });
  const logger = options.logger ?? pino({ level: 'silent' });
  const database = await openDatabase(config.DATABASE_URL!, config.DB_POOL_MAX);
  const container = buildContainer(config, database.orm, logger, overrides);
  await container.startWorkers();
  const server: Server = await new Promise((resolve) => {
    const s = createHttpServer(container.http, httpTimeouts(config), logger).listen(options.port ?? 0, '127.0.0.1', () => resolve(s));
  });
  container.graphql.attach(server);
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const keyDeps = () => ({ ids: container.ids, hasher: sha256Hasher, now: new Date() });

  return {
    baseUrl,
    server,
    container,
    database,
    config,
    async newTenant(funding = '1000000') {
      const tenant = newTenant({ id: container.ids.next('ten'), name: `Tenant ${randomUUID()}`, environment: 'sandbox', createdAt: new Date() });
      const apiKey = generateApiKey('sandbox');
      await container.tenants.createTenantWithKeys(tenant, [storedKey(apiKey, 'issuer', tenant.id, 'test', keyDeps())]);
      if (Number(funding) > 0) {
        for (const currency of ['USDC', 'USDT'] as const) {
          const funded = await container.admin.fundSandboxTenant(tenant.id, { currency, amount: funding });
          if (!funded.ok) throw new Error(funded.message);
        }
      }
      return { tenantId: tenant.id, apiKey };
    },
    async newAdminKey() {
      const apiKey = generateApiKey('sandbox');
      await container.tenants.createTenantWithKeys(undefined, [storedKey(apiKey, 'admin', null, 'test admin', keyDeps())]);
      return apiKey;
    },
    async call(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
      let body: string | undefined;
      if (options.rawBody !== undefined) body = options.rawBody;
      else if (options.body !== undefined) body = JSON.stringify(options.body);
      if (body !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
      const response = await fetch(baseUrl + path, { method, headers, body });
      const text = await response.text();
      let parsed: unknown;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
      return { status: response.status, headers: response.headers, body: parsed, text };
    },
    async close() {
      await container.graphql.closeRealtime();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections?.();
      await container.stop();
      await database.close();
    },
  };
}

/** The interface's money-out example body (Kenya, M-PESA), with a fresh reference. */
export function moneyOutBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    fiatAmount: 1500,
    sourceCurrency: 'USDC',
    destinationCurrency: 'KES',
    country: 'KE',
    blockchain: 'SOLANA',
    paymentMethod: 'MOMO',
    accountName: 'Jane Wanjiku',
    accountNumber: '254712345678',
    paymentCode: 'MPESA',
    reference: `ref-${randomUUID()}`,
    refundAddress: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU',
    optionalIssuerFee: 'NO',
    ...overrides,
  };
}

/** Polls `probe` every 25 ms until it returns a value or `timeoutMs` passes (then throws). */
export async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}
