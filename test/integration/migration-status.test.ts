import { MikroORM } from '@mikro-orm/postgresql';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { ormOptions } from '../../src/adapters/persistence/mikro-orm.config';
import { pendingMigrationNames } from '../../src/adapters/persistence/migration-status';
import { databaseProbe } from '../../src/app/database';
import { migrationDatabase } from '../support/migration-database';

// pendingMigrationNames answers what the migrator's getPendingMigrations does, without loading it:
// a start finding nothing pending skips the migrator, and readiness reports pending migrations.
describe('pending migrations, read without the migrator', () => {
  const db = migrationDatabase('migration_status', 'Migration20261122094904');

  it('names the migrations not yet executed, as the migrator does, and none once migrated', async () => {
    const migrator = (await db.orm().getMigrator().getPendingMigrations()).map((m) => m.name.replace(/\.(js|ts)$/, ''));
    const pending = await pendingMigrationNames(db.orm());
    expect(pending.length).toBeGreaterThan(10);
    expect(pending[0]).toBe('Migration20261122095220');
    expect(pending).toEqual(migrator);
    expect(await databaseProbe(db.orm(), 'test').ready()).toMatchObject({ ready: false, migrations: 'pending', detail: `${pending.length} pending` });

    await db.migrateUp();
    expect(await pendingMigrationNames(db.orm())).toEqual([]);
    expect(await databaseProbe(db.orm(), 'test').ready()).toMatchObject({ ready: true, migrations: 'applied' });
  });

  it('names every migration on a database never migrated (no migrations table yet)', async () => {
    const name = `migration_status_empty_${process.pid}_${randomBytes(4).toString('hex')}`;
    const admin = new Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${name}`;
    const orm = await MikroORM.init(ormOptions(url.toString(), 1));
    try {
      const pending = await pendingMigrationNames(orm);
      expect(pending[0]).toBe('Migration20261122092024');
      // Asked second: the migrator creates its table when it looks.
      const migrator = (await orm.getMigrator().getPendingMigrations()).map((m) => m.name.replace(/\.(js|ts)$/, ''));
      expect(pending).toEqual(migrator);
    } finally {
      await orm.close(true);
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });
});
