/**
 * Manual check of the embedded PostgreSQL (docs/decisions.md § Running it): start, `select 1` through the url, stop.
 *
 *   npx ts-node --transpile-only test/tools/try-embedded.ts [dataDir] [port] [--hold]
 *
 * Defaults: /tmp/emb-try/data, 54329. `--hold` prints `READY pid=<node pid>` and keeps running until
 * killed, to reproduce the stale-server case (`kill -9 <node pid>`, then run again).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { startEmbeddedDatabase } from '../../src/app/embedded-database';

async function main(): Promise<void> {
  const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const hold = process.argv.includes('--hold');
  const dataDir = args[0] ?? '/tmp/emb-try/data';
  const port = Number(args[1] ?? 54329);
  const firstRun = !existsSync(path.join(path.resolve(dataDir), 'pg', 'PG_VERSION'));

  const t0 = performance.now();
  const db = await startEmbeddedDatabase({
    dataDir,
    port,
    databaseName: 'payout',
    log: (msg) => console.log(`  [embedded] ${msg}`),
  });
  const t1 = performance.now();

  const client = new Client({ connectionString: db.url });
  await client.connect();
  const { rows } = await client.query<{ one: number; db: string; usr: string }>(
    'select 1 as one, current_database() as db, current_user as usr',
  );
  await client.end();
  const t2 = performance.now();
  console.log(`select 1 -> ${JSON.stringify(rows[0])}`);

  if (hold) {
    console.log(`READY pid=${process.pid}`);
    setInterval(() => undefined, 60_000);
    return;
  }
  await db.stop();
  await db.stop(); // idempotent
  const t3 = performance.now();
  console.log(
    `${firstRun ? 'first run (initdb)' : 'reused cluster'}: start ${ms(t1 - t0)}, query ${ms(t2 - t1)}, ` +
      `stop ${ms(t3 - t2)}, total ${ms(t3 - t0)}`,
  );
}

function ms(value: number): string {
  return `${Math.round(value)} ms`;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
