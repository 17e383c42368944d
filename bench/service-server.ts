/**
 * The real service for the money-out benchmark (bench/moneyout.bench.ts), wired as main.ts and
 * test/support/test-service.ts do (loadConfig, buildContainer, listen on 127.0.0.1:<random>), with
 * LOG_LEVEL=silent and both background workers off (WORKER_ENABLED=false, WEBHOOK_WORKER_ENABLED=false)
 * so only the request path of POST /v1/payments/moneyout is measured, not the payout worker.
 * Creates one funded sandbox tenant with an issuer key, as test-service.ts does.
 * Started in-process by `npm run bench:moneyout`.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes, randomUUID } from 'node:crypto';
import { sha256Hasher } from '../src/adapters/providers/system';
import { generateApiKey, storedKey } from '../src/app/api-keys';
import { loadConfig } from '../src/app/config';
import { buildContainer, type Container, type ContainerOverrides } from '../src/app/container';
import type { Database } from '../src/app/database';
import { createLogger } from '../src/app/logger';
import { newTenant } from '../src/core/auth/tenant';
import { solanaTxHash } from '../test/support/tx-hashes';

/** Settings the service runs with here, printed by the benchmark. */
export const SERVICE_ENV = {
  LOG_LEVEL: 'silent',
  WORKER_ENABLED: 'false',
  WEBHOOK_WORKER_ENABLED: 'false',
  // Counted as in production (in memory here: REDIS_URL is unset), but high enough never to refuse.
  RATE_LIMIT_PER_MINUTE: '100000000',
} as const;

/** Per stablecoin: enough that no benchmark run meets `insufficient_balance` (a payment holds ~12 USDC). */
const FUNDING = '1000000000';

export interface ServiceServer {
  readonly baseUrl: string;
  /** Issuer key of the first benchmark tenant, in clear. */
  readonly apiKey: string;
  /** Issuer keys of every benchmark tenant (`tenants` of them), in clear. */
  readonly apiKeys: string[];
  /** The tenant of each key of `apiKeys`, same order. */
  readonly tenantIds: string[];
  /** The wired service, for benchmarks that time its use cases without HTTP. */
  readonly container: Container;
  /** Stops the HTTP server and the container; the database is closed by its owner. */
  close(): Promise<void>;
}

/** How the benchmark tenants are made: sandbox (the default), or live (funded by recorded deposits), and the container's overrides. */
export interface ServiceServerOptions {
  readonly environment?: 'sandbox' | 'live';
  readonly overrides?: ContainerOverrides;
}

/**
 * Starts the service on `database` (already migrated, opened with the pool size given in `poolMax`),
 * with `tenants` funded tenants; `env` overrides SERVICE_ENV (e.g. the lifecycle benchmark turns the
 * workers on and the sandbox delays off). Live tenants (`options.environment`) are priced from the
 * live rate sources when RATES_SOURCES is set, and need a live provider (`options.overrides`).
 */
export async function startServiceServer(
  database: Database, databaseUrl: string, poolMax: number, tenants = 1, env: Record<string, string> = {}, options: ServiceServerOptions = {},
): Promise<ServiceServer> {
  const environment = options.environment ?? 'sandbox';
  const config = loadConfig({
    ...SERVICE_ENV,
    ...env,
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    PORT: '0',
    HOST: '127.0.0.1',
    DB_POOL_MAX: String(poolMax),
    WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'),
  });
  const container = buildContainer(config, database.orm, createLogger(config.LOG_LEVEL), options.overrides);
  await container.startWorkers();

  const apiKeys: string[] = [];
  const tenantIds: string[] = [];
  for (let i = 0; i < tenants; i++) {
    const tenant = newTenant({ id: container.ids.next('ten'), name: `Bench ${randomUUID()}`, environment, createdAt: new Date() });
    const apiKey = generateApiKey(environment);
    apiKeys.push(apiKey);
    tenantIds.push(tenant.id);
    await container.tenants.createTenantWithKeys(tenant, [
      storedKey(apiKey, 'issuer', tenant.id, 'bench', { ids: container.ids, hasher: sha256Hasher, now: new Date() }),
    ]);
    for (const currency of ['USDC', 'USDT'] as const) {
      const deposit = environment === 'live'
        ? await container.admin.recordDeposit(tenant.id, { currency, amount: FUNDING, blockchain: 'SOLANA', txHash: solanaTxHash() })
        : await container.admin.fundSandboxTenant(tenant.id, { currency, amount: FUNDING });
      if (!deposit.ok) throw new Error(`funding the bench tenant failed: ${deposit.message}`);
    }
  }

  const server: Server = await new Promise((resolve) => {
    const s = container.http.listen(0, '127.0.0.1', () => resolve(s));
  });
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    apiKey: apiKeys[0]!,
    apiKeys,
    tenantIds,
    container,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await container.stop();
    },
  };
}
