import { MikroORM } from '@mikro-orm/postgresql';
import path from 'node:path';
import { ormOptions } from '../adapters/persistence/mikro-orm.config';
import type { HealthProbe } from '../adapters/http/health.routes';
import type { Config } from './config';
import { startEmbeddedDatabase, type EmbeddedDatabase } from './embedded-database';

/** An open, migrated database: the ORM, and the embedded server when one was started. */
export interface Database {
  readonly orm: MikroORM;
  readonly url: string;
  readonly embedded?: EmbeddedDatabase;
  close(): Promise<void>;
}

/**
 * Opens the database (DESIGN.md 13): DATABASE_URL when set, else an embedded PostgreSQL under
 * DATA_DIR; then applies pending migrations.
 */
export async function openDatabase(config: Config, log: (msg: string) => void): Promise<Database> {
  const embedded = config.DATABASE_URL
    ? undefined
    : await startEmbeddedDatabase({
        dataDir: path.resolve(config.DATA_DIR),
        port: config.EMBEDDED_DB_PORT,
        databaseName: 'payout',
        log,
      });
  const url = config.DATABASE_URL ?? embedded!.url;
  const orm = await MikroORM.init(ormOptions(url, config.DB_POOL_MAX));
  await orm.getMigrator().up();
  return {
    orm,
    url,
    embedded,
    close: async () => {
      await orm.close(true);
      await embedded?.stop();
    },
  };
}

/** Readiness (DESIGN.md 10): the database answers and no migration is pending. */
export function databaseProbe(orm: MikroORM, version: string): HealthProbe {
  return {
    version,
    ready: async () => {
      try {
        await orm.em.getConnection().execute('select 1');
      } catch {
        return { ready: false, database: 'down', migrations: 'unknown', detail: 'database unreachable' };
      }
      const pending = await orm.getMigrator().getPendingMigrations();
      return pending.length === 0
        ? { ready: true, database: 'up', migrations: 'applied' }
        : { ready: false, database: 'up', migrations: 'pending', detail: `${pending.length} pending` };
    },
  };
}
