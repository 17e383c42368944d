import { MikroORM } from '@mikro-orm/postgresql';
import { ormOptions } from '../adapters/persistence/mikro-orm.config';
import type { HealthProbe } from '../adapters/http/health.routes';

/** An open, migrated database. */
export interface Database {
  readonly orm: MikroORM;
  close(): Promise<void>;
}

/**
 * Opens PostgreSQL at `url` with at most `poolMax` connections and applies pending migrations
 * (DESIGN.md 13). The embedded server, when used, is started by main before this.
 */
export async function openDatabase(url: string, poolMax: number): Promise<Database> {
  const orm = await MikroORM.init(ormOptions(url, poolMax));
  await orm.getMigrator().up();
  return { orm, close: () => orm.close(true) };
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
