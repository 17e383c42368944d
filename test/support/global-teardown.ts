import { Client } from 'pg';
import type { EmbeddedDatabase } from '../../src/app/embedded-database';

/** Drops this run's database and stops the embedded server global-setup started, if any. */
export default async function globalTeardown(): Promise<void> {
  const state = globalThis as { __embeddedDb?: EmbeddedDatabase; __testDb?: { serverUrl: string; name: string } };
  if (state.__testDb) {
    const admin = new Client({ connectionString: state.__testDb.serverUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${state.__testDb.name} with (force)`);
    await admin.end();
  }
  await state.__embeddedDb?.stop();
}
