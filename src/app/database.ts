import { MikroORM } from '@mikro-orm/postgresql';
import { Client, type ClientConfig } from 'pg';
import type { Logger } from 'pino';
import { ormOptions } from '../adapters/persistence/mikro-orm.config';
import { pendingMigrationNames } from '../adapters/persistence/migration-status';
import type { HealthProbe } from '../adapters/http/health.routes';

/** An open, migrated database. */
export interface Database {
  readonly orm: MikroORM;
  /**
   * Runs `work` while this process holds the database's start lock (a session advisory lock on a
   * connection of its own), waiting for it when another process holds it: what only one replica
   * may do at a time at start (migrations, the first-start seed; docs/decisions.md § Running it).
   * Resolves or rejects with `work`'s outcome; the lock is released either way.
   */
  exclusively<T>(work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * The start lock's key, in PostgreSQL's two-int4 key space, which never overlaps the one-bigint
 * space of the idempotency locks (`hashtextextended`): 0x7061796f is "payo".
 */
const START_LOCK = [0x7061796f, 1] as const;

/**
 * Opens PostgreSQL at `url` with at most `poolMax` connections and applies pending migrations
 * under the start lock, so replicas starting together on a fresh database migrate it once: the
 * others wait, then find nothing pending (docs/decisions.md § Running it). The embedded server, when
 * used, is started by main before this. With `logger`, the migrator's lines are JSON log lines and
 * a wait for the lock is logged once (info). Rejects (pool closed) when the database cannot be
 * reached or a migration fails.
 */
export async function openDatabase(url: string, poolMax: number, logger?: Logger): Promise<Database> {
  const orm = await MikroORM.init(ormOptions(url, poolMax, logger));
  const exclusively = <T>(work: () => Promise<T>) => underStartLock(orm, work, logger);
  try {
    // The migrator (a large module tree) is loaded only when there is something to migrate.
    if ((await pendingMigrationNames(orm)).length > 0) await exclusively(() => orm.getMigrator().up());
  } catch (error) {
    await orm.close(true);
    throw error;
  }
  return { orm, exclusively, close: () => orm.close(true) };
}

/**
 * Takes the start lock on a dedicated connection (a pooled one could go back to the pool still
 * holding it), runs `work`, and closes that connection, which releases the lock even when the
 * unlock itself could not be sent.
 */
async function underStartLock<T>(orm: MikroORM, work: () => Promise<T>, logger?: Logger): Promise<T> {
  const client = new Client(orm.em.getConnection().getConnectionOptions() as ClientConfig);
  // A connection lost while holding the lock: the lock goes with it; `work` still ends on its own.
  client.on('error', (err) => logger?.warn({ err: err.message }, 'start lock connection lost'));
  await client.connect();
  try {
    const { rows } = await client.query<{ locked: boolean }>('select pg_try_advisory_lock($1, $2) as locked', [...START_LOCK]);
    if (!rows[0]!.locked) {
      logger?.info('another process is migrating or seeding the database: waiting for it');
      await client.query('select pg_advisory_lock($1, $2)', [...START_LOCK]);
    }
    return await work();
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Readiness (docs/decisions.md § Analytics, admin and health): the database answers and no migration is pending. */
export function databaseProbe(orm: MikroORM, version: string): HealthProbe {
  return {
    version,
    ready: async () => {
      try {
        await orm.em.getConnection().execute('select 1');
      } catch {
        return { ready: false, database: 'down', migrations: 'unknown', detail: 'database unreachable' };
      }
      const pending = await pendingMigrationNames(orm);
      return pending.length === 0
        ? { ready: true, database: 'up', migrations: 'applied' }
        : { ready: false, database: 'up', migrations: 'pending', detail: `${pending.length} pending` };
    },
  };
}
