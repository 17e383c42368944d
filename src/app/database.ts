import { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { ormOptions } from '../adapters/persistence/mikro-orm.config';
import type { HealthProbe } from '../adapters/http/health.routes';

/** An open, migrated database. */
export interface Database {
  readonly orm: MikroORM;
  close(): Promise<void>;
}

/**
 * Opens PostgreSQL at `url` with at most `poolMax` connections and applies pending migrations
 * (docs/decisions.md § Running it). The embedded server, when used, is started by main before this. With `logger`,
 * the migrator's lines are JSON log lines (docs/decisions.md § Running it).
 */
export async function openDatabase(url: string, poolMax: number, logger?: Logger): Promise<Database> {
  const orm = await MikroORM.init(ormOptions(url, poolMax, logger));
  await orm.getMigrator().up();
  return { orm, close: () => orm.close(true) };
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
      const pending = await orm.getMigrator().getPendingMigrations();
      return pending.length === 0
        ? { ready: true, database: 'up', migrations: 'applied' }
        : { ready: false, database: 'up', migrations: 'pending', detail: `${pending.length} pending` };
    },
  };
}
