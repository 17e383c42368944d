import { MikroORM } from '@mikro-orm/postgresql';
import path from 'node:path';
import { Client } from 'pg';
import { ormOptions } from '../../src/adapters/persistence/mikro-orm.config';
import { startEmbeddedDatabase, type EmbeddedDatabase } from '../../src/app/embedded-database';
import { workerDatabaseName } from './worker-database';

// One set of databases per run: parallel runs on one server (several engineers, CI) never share one.
const TEMPLATE_DATABASE = `payout_test_${process.pid}`;

/** What global-teardown needs: the server and every database this run made on it. */
export interface TestDatabases {
  readonly serverUrl: string;
  readonly names: readonly string[];
}

/**
 * Once per run (README "Tests"): finds a PostgreSQL server (DATABASE_URL, else an embedded one
 * under .data/test), creates `payout_test_<pid>` on it and applies the migrations, then clones it
 * (`create database ... template ...`, a file copy) into one database per jest worker,
 * `payout_test_<pid>_w<n>` for n in 1..maxWorkers. Each worker's files run one after another on
 * their own database (test/support/worker-database.ts points TEST_DATABASE_URL at it), so files in
 * different workers never see each other's rows. global-teardown drops them all.
 */
export default async function globalSetup(globalConfig: { readonly maxWorkers: number }): Promise<void> {
  let serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const embedded: EmbeddedDatabase = await startEmbeddedDatabase({
      dataDir: path.resolve(__dirname, '../../.data/test'),
      port: Number(process.env.TEST_EMBEDDED_DB_PORT ?? 54339),
      databaseName: 'postgres',
    });
    (globalThis as { __embeddedDb?: EmbeddedDatabase }).__embeddedDb = embedded;
    serverUrl = embedded.url;
  }
  const workers = Math.max(1, globalConfig.maxWorkers);
  const clones = Array.from({ length: workers }, (_, i) => workerDatabaseName(TEMPLATE_DATABASE, i + 1));
  const databases: TestDatabases = { serverUrl, names: [...clones, TEMPLATE_DATABASE] };
  (globalThis as { __testDbs?: TestDatabases }).__testDbs = databases;

  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    for (const name of databases.names) await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${TEMPLATE_DATABASE}`);
    const template = new URL(serverUrl);
    template.pathname = `/${TEMPLATE_DATABASE}`;
    const orm = await MikroORM.init(ormOptions(template.toString(), 2));
    await orm.getMigrator().up();
    // A template must have no session open while it is copied.
    await orm.close(true);
    for (const name of clones) await admin.query(`create database ${name} template ${TEMPLATE_DATABASE}`);
  } finally {
    await admin.end();
  }

  // Read by test/support/worker-database.ts in each worker (and in band).
  process.env.TEST_DATABASE_SERVER_URL = serverUrl;
  process.env.TEST_DATABASE_TEMPLATE = TEMPLATE_DATABASE;
  process.env.TEST_DATABASE_WORKERS = String(workers);
  // Anything that runs without the setup file (a tool started by hand from a test) gets worker 1's.
  const first = new URL(serverUrl);
  first.pathname = `/${clones[0]}`;
  process.env.TEST_DATABASE_URL = first.toString();
}
