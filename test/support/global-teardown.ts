import { Client } from 'pg';
import type { EmbeddedDatabase } from '../../src/app/embedded-database';
import type { TestDatabases } from './global-setup';

/** Drops this run's databases (every worker's and the template) and stops the embedded server global-setup started, if any. */
export default async function globalTeardown(): Promise<void> {
  const state = globalThis as { __embeddedDb?: EmbeddedDatabase; __testDbs?: TestDatabases };
  if (state.__testDbs) {
    const admin = new Client({ connectionString: state.__testDbs.serverUrl });
    await admin.connect();
    try {
      for (const name of state.__testDbs.names) await admin.query(`drop database if exists ${name} with (force)`);
    } finally {
      await admin.end();
    }
  }
  await state.__embeddedDb?.stop();
}
