/**
 * Database for the money-out benchmark (bench/moneyout.bench.ts): finds a PostgreSQL server
 * (DATABASE_URL, else the embedded one under .data/bench on port 54349), creates a fresh database
 * `payout_bench` on it (dropped first WITH (FORCE)) and applies the migrations with openDatabase.
 * Measures nothing itself. Run through `npm run bench:moneyout`.
 */
import path from 'node:path';
import { Client } from 'pg';
import { openDatabase, type Database } from '../src/app/database';
import { startEmbeddedDatabase, type EmbeddedDatabase } from '../src/app/embedded-database';

const BENCH_DATABASE = 'payout_bench';
const EMBEDDED_PORT = 54349;

/** The migrated `payout_bench` database and where it lives. */
export interface BenchDatabase {
  /** Connection url of `payout_bench`. */
  readonly url: string;
  /** The service's ORM on it, migrated, with `poolMax` connections at most. */
  readonly database: Database;
  /** 'external (DATABASE_URL)' or 'embedded (127.0.0.1:54349)', for the report. */
  readonly where: string;
  /** PostgreSQL's version string, for the report. */
  readonly version: string;
  /** Runs CHECKPOINT, so dirty pages of an earlier phase are not flushed during the next one. */
  checkpoint(): Promise<void>;
  /** Closes the ORM and stops the embedded server, if one was started. */
  close(): Promise<void>;
}

/** Opens the fresh database `name` (default `payout_bench`; another name keeps benchmarks that run together apart). */
export async function openBenchDatabase(poolMax: number, name = BENCH_DATABASE): Promise<BenchDatabase> {
  let embedded: (() => Promise<void>) | undefined;
  let serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const shared = await useEmbedded();
    embedded = shared.release;
    serverUrl = shared.url;
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  try {
    const version = await withClient(serverUrl, async (admin) => {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.query(`create database ${name}`);
      return (await admin.query<{ v: string }>("select current_setting('server_version') as v")).rows[0]?.v ?? '?';
    });
    const database = await openDatabase(url.toString(), poolMax);
    return {
      url: url.toString(),
      database,
      where: embedded ? `embedded (127.0.0.1:${EMBEDDED_PORT})` : 'external (DATABASE_URL)',
      version,
      checkpoint: () => withClient(url.toString(), async (c) => void (await c.query('checkpoint'))),
      async close() {
        await database.close();
        await embedded?.();
      },
    };
  } catch (error) {
    await embedded?.();
    throw error;
  }
}

async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The embedded server, started once and shared by every bench database open at the same time (one port). */
let embeddedServer: { server: Promise<EmbeddedDatabase>; users: number } | undefined;

async function useEmbedded(): Promise<{ url: string; release: () => Promise<void> }> {
  embeddedServer ??= {
    server: startEmbeddedDatabase({ dataDir: path.resolve(__dirname, '../.data/bench'), port: EMBEDDED_PORT, databaseName: 'postgres' }),
    users: 0,
  };
  const shared = embeddedServer;
  shared.users += 1;
  let server: EmbeddedDatabase;
  try {
    server = await shared.server;
  } catch (error) {
    embeddedServer = undefined;
    throw error;
  }
  let released = false;
  return {
    url: server.url,
    async release() {
      if (released) return;
      released = true;
      shared.users -= 1;
      if (shared.users === 0 && embeddedServer === shared) {
        embeddedServer = undefined;
        await server.stop();
      }
    },
  };
}
