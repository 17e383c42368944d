/**
 * Commit throughput with and without NOTIFY in the writing transaction (`npm run bench:notify`),
 * PostgreSQL alone, no HTTP (docs/decisions.md § Performance, "NOTIFY after commit"). On a fresh
 * migrated database `payout_bench_notify`, BENCH_CLIENTS connections each commit one outbox row
 * per transaction (one simple query: begin, insert, commit) as fast as they can, in three ways:
 *   in-transaction: the row and `pg_notify('payment_events', <the old JSON notice>)`, as every
 *                   money-out and move did before;
 *   after commit:   the row, then the wake-up handed to PgCommitNotifier (coalesced NOTIFY on its
 *                   own connection, synchronous_commit off), as they do now;
 *   floor:          the row alone.
 * One LISTEN connection hears `payment_events` throughout (as a replica's would). The three run in
 * interleaved bursts (BENCH_BURST s each, BENCH_ROUNDS rounds, order rotating). Prints commits/s,
 * p50/p99 per transaction, the notices heard, and the ratios.
 *
 * Run:  DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:notify
 * Env:  BENCH_CLIENTS (20), BENCH_BURST seconds (2), BENCH_ROUNDS (3).
 */
import { Client } from 'pg';
import pino from 'pino';
import { PgCommitNotifier } from '../src/adapters/notifications/commit-notifier';
import { PAYMENT_EVENTS_CHANNEL } from '../src/adapters/persistence/notify-channels';
import { openBenchDatabase } from './bench-database';

type Variant = 'in-transaction' | 'after commit' | 'floor';
const VARIANTS: Variant[] = ['in-transaction', 'after commit', 'floor'];
const int = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const INSERT = `insert into outbox_events (id, tenant_id, type, entity_id, payload, created_at)
  values (gen_random_uuid(), 'ten_bench', 'payment.initiated', 'pay_bench', '{"status":"initiated"}', now())`;
const OLD_NOTICE = JSON.stringify({ id: '00000000-0000-4000-8000-000000000000', tenantId: 'ten_bench', paymentId: 'pay_bench', status: 'initiated' });

async function main(): Promise<void> {
  const clients = int('BENCH_CLIENTS', 20);
  const burstS = int('BENCH_BURST', 2);
  const rounds = int('BENCH_ROUNDS', 3);
  const db = await openBenchDatabase(2, 'payout_bench_notify');
  const connect = async () => {
    const client = new Client({ connectionString: db.url });
    await client.connect();
    return client;
  };
  const listener = await connect();
  let heard = 0;
  listener.on('notification', () => (heard += 1));
  await listener.query(`listen "${PAYMENT_EVENTS_CHANNEL}"`);
  const notifier = new PgCommitNotifier({ connectionString: db.url }, { deliverLocally: () => undefined, ignoreSender: () => undefined }, pino({ level: 'silent' }));
  const writers = await Promise.all(Array.from({ length: clients }, connect));
  const scripts: Record<Variant, string> = {
    'in-transaction': `begin; ${INSERT}; select pg_notify('${PAYMENT_EVENTS_CHANNEL}', '${OLD_NOTICE}'); commit`,
    'after commit': `begin; ${INSERT}; commit`,
    floor: `begin; ${INSERT}; commit`,
  };
  const totals = new Map<Variant, { commits: number; seconds: number; latencies: number[]; heard: number }>(
    VARIANTS.map((v) => [v, { commits: 0, seconds: 0, latencies: [], heard: 0 }]));

  const burst = async (variant: Variant) => {
    const total = totals.get(variant)!;
    const heardBefore = heard;
    const start = performance.now();
    const end = start + burstS * 1000;
    await Promise.all(writers.map(async (client) => {
      while (performance.now() < end) {
        const t0 = performance.now();
        await client.query(scripts[variant]);
        if (variant === 'after commit') notifier.notify([{ channel: PAYMENT_EVENTS_CHANNEL, payload: '' }]);
        total.latencies.push(performance.now() - t0);
        total.commits += 1;
      }
    }));
    total.seconds += (performance.now() - start) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 200));
    total.heard += heard - heardBefore;
  };

  console.log(`notify-commit benchmark: ${clients} connections, PostgreSQL ${db.version} ${db.where}, ${rounds} rounds of one ${burstS} s burst per variant (rotating)`);
  for (let round = 0; round < rounds; round += 1) {
    for (let i = 0; i < VARIANTS.length; i += 1) await burst(VARIANTS[(i + round) % VARIANTS.length]!);
  }
  const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
  const rate = (v: Variant) => totals.get(v)!.commits / totals.get(v)!.seconds;
  const p99 = (v: Variant) => pct([...totals.get(v)!.latencies].sort((a, b) => a - b), 0.99);
  console.log('| variant | commits/s | p50 | p99 | notices heard |');
  console.log('|---|---|---|---|---|');
  for (const v of VARIANTS) {
    const sorted = [...totals.get(v)!.latencies].sort((a, b) => a - b);
    console.log(`| ${v} | ${rate(v).toFixed(0)} | ${pct(sorted, 0.5).toFixed(1)} ms | ${pct(sorted, 0.99).toFixed(1)} ms | ${totals.get(v)!.heard} |`);
  }
  console.log(`commits/s, after commit ÷ in-transaction: ${(rate('after commit') / rate('in-transaction')).toFixed(2)}`);
  console.log(`commits/s, after commit ÷ floor: ${(rate('after commit') / rate('floor')).toFixed(2)}`);
  console.log(`p99, after commit ÷ in-transaction: ${(p99('after commit') / p99('in-transaction')).toFixed(2)}`);

  await notifier.stop();
  await Promise.all([...writers, listener].map((c) => c.end()));
  await db.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
