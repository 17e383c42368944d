import { MikroORM } from '@mikro-orm/postgresql';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { ormOptions } from '../../src/adapters/persistence/mikro-orm.config';

/** A fresh database of its own, migrated up to a given migration, for testing the migrations after it on seeded rows. */
export interface MigrationDatabase {
  /** Runs one statement (`?` placeholders) and returns its rows. */
  sql<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** Applies the pending migrations, up to and including `to` when given. */
  migrateUp(to?: string): Promise<void>;
  /** The database's ORM (open between the suite's hooks). */
  orm(): MikroORM;
}

/**
 * Registers jest hooks that create a database named `<prefix>_<pid>_<random>` on the test server
 * (TEST_DATABASE_URL) before the suite, migrate it up to `before` (a migration's name), and drop
 * it after the suite.
 */
export function migrationDatabase(prefix: string, before: string): MigrationDatabase {
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const serverUrl = new URL(process.env.TEST_DATABASE_URL!);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  let orm: MikroORM;
  const server = async (text: string) => {
    const client = new Client({ connectionString: serverUrl.toString() });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  beforeAll(async () => {
    await server(`create database ${name}`);
    orm = await MikroORM.init(ormOptions(url.toString(), 2));
    await orm.getMigrator().up({ to: before });
  });
  afterAll(async () => {
    await orm.close(true);
    await server(`drop database if exists ${name} with (force)`);
  });
  return {
    sql: <T>(text: string, params: unknown[] = []) => orm.em.fork().getConnection().execute(text, params) as Promise<T[]>,
    migrateUp: async (to?: string) => void (await orm.getMigrator().up(to ? { to } : undefined)),
    orm: () => orm,
  };
}
