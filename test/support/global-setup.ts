import { MikroORM } from '@mikro-orm/postgresql';
import path from 'node:path';
import { Client } from 'pg';
import { ormOptions } from '../../src/adapters/persistence/mikro-orm.config';
import { startEmbeddedDatabase, type EmbeddedDatabase } from '../../src/app/embedded-database';

// One database per run: parallel runs on one server (several engineers, CI) never share one.
const TEST_DATABASE = `payout_test_${process.pid}`;

/**
 * Once per run: finds a PostgreSQL server (DATABASE_URL, else an embedded one under
 * .data/test), creates a fresh `payout_test_<pid>` database on it and applies the migrations.
 * Test files read the result from TEST_DATABASE_URL; global-teardown drops it.
 */
export default async function globalSetup(): Promise<void> {
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
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${TEST_DATABASE} with (force)`);
  await admin.query(`create database ${TEST_DATABASE}`);
  await admin.end();

  const url = new URL(serverUrl);
  url.pathname = `/${TEST_DATABASE}`;
  process.env.TEST_DATABASE_URL = url.toString();
  (globalThis as { __testDb?: { serverUrl: string; name: string } }).__testDb = { serverUrl, name: TEST_DATABASE };
  const orm = await MikroORM.init(ormOptions(url.toString(), 2));
  await orm.getMigrator().up();
  await orm.close(true);
}
