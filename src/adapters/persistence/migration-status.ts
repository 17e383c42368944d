import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { MikroORM } from '@mikro-orm/postgresql';

/** The table MikroORM's migrator records executed migrations in (its default; ormOptions keeps it). */
const EXECUTED_TABLE = 'mikro_orm_migrations';

/**
 * The names (file names without extension, as the migrator records them) of the migrations in the
 * configured folder that the database has not executed, oldest first (docs/decisions.md § Running
 * it). The same answer as the migrator's `getPendingMigrations`, without loading the migrator and
 * its dependencies: a start on an up-to-date database, and every readiness probe, only read a
 * folder and one table. A database that has never been migrated has them all pending.
 */
export async function pendingMigrationNames(orm: MikroORM): Promise<string[]> {
  const folder = orm.config.get('migrations').path!;
  // The migrator's glob `!(*.d).{js,ts}`: sources in development, compiled files in the build.
  const files = (await readdir(folder)).filter((f) => /\.(js|ts)$/.test(f) && !f.endsWith('.d.ts')).map((f) => path.parse(f).name).sort();
  const connection = orm.em.getConnection();
  const [table] = await connection.execute<Array<{ present: string | null }>>('select to_regclass(?) as present', [EXECUTED_TABLE]);
  if (!table?.present) return files;
  const rows = await connection.execute<Array<{ name: string }>>(`select name from ${EXECUTED_TABLE}`);
  const executed = new Set(rows.map((r) => path.parse(r.name).name));
  return files.filter((name) => !executed.has(name));
}
