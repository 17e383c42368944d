import { Client } from 'pg';
import type { Blockchain } from '../../src/core/catalog/catalog';

/**
 * Sets aside the refunds earlier test files left owed on `blockchain` in this jest worker's database
 * (test/support/worker-database.ts: files of a worker share it, one after another), so a hot wallet
 * a file starts sends only that file's refunds: every `pending` one is marked `failed`, as an
 * operator's queue would hold it. Call before the file's service starts its refunds worker.
 */
export async function setAsideEarlierRefunds(blockchain: Blockchain): Promise<void> {
  const client = new Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query("update onchain_refunds set status = 'failed' where blockchain = $1 and status = 'pending'", [blockchain]);
  } finally {
    await client.end();
  }
}
