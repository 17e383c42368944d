/**
 * Money-out throughput benchmark: POST /v1/payments/moneyout on the real service versus a raw
 * express 5 + pg baseline doing the same three inserts in one transaction (bench/raw-server.ts),
 * each on its own fresh PostgreSQL database (`payout_bench`, `payout_bench_raw`), both with a pool of 10 connections.
 * Each target gets a 2 s warm-up, then a measured autocannon run; every request carries a fresh
 * Idempotency-Key and reference. Prints req/s, p50/p99 latency and non-2xx counts per target, the
 * service/raw ratios and the targets (throughput ratio >= 0.8, p99 <= 1.5x raw).
 * The service runs with its workers off: the request path is measured, not the payout worker.
 *
 * Run:  npm run bench:moneyout                       (embedded PostgreSQL under .data/bench, port 54349)
 *       DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:moneyout
 * Env:  BENCH_CONNECTIONS (20), BENCH_DURATION seconds (10),
 *       BENCH_TENANTS (20): a second service run spreads the requests over this many funded tenants.
 * Exits 0 unless it crashes or more than 1% of the measured responses are not 2xx (socket errors count too).
 */
import { moneyOutBody } from '../test/support/test-service';
import { openBenchDatabase, type BenchDatabase } from './bench-database';
import { expectCreated, runLoad, tooManyFailures, type LoadSummary } from './load';
import { startRawServer, type RawServer } from './raw-server';
import { SERVICE_ENV, startServiceServer, type ServiceServer } from './service-server';

const POOL_MAX = 10;
const WARMUP_S = 2;
const TARGET_RATIO = 0.8;
const TARGET_P99_FACTOR = 1.5;
const MAX_BAD_FRACTION = 0.01;

function intEnv(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer >= ${min}, got ${raw}`);
  return value;
}

async function main(): Promise<number> {
  const connections = intEnv('BENCH_CONNECTIONS', 20, 1);
  const durationS = intEnv('BENCH_DURATION', 10, 1);
  const tenants = intEnv('BENCH_TENANTS', 20, 1);
  // Hard bound: nothing here should ever hang the caller.
  const watchdog = setTimeout(() => {
    process.stderr.write('bench:moneyout: watchdog expired, aborting\n');
    process.exit(2);
  }, (2 * (durationS + WARMUP_S) + 60) * 1000);
  watchdog.unref();

  let db: BenchDatabase | undefined;
  let rawDb: BenchDatabase | undefined;
  let raw: RawServer | undefined;
  let service: ServiceServer | undefined;
  try {
    // Each target on its own fresh database: neither measures on the other's rows.
    rawDb = await openBenchDatabase(POOL_MAX, 'payout_bench_raw');
    db = await openBenchDatabase(POOL_MAX);
    raw = await startRawServer(rawDb.url, POOL_MAX);
    service = await startServiceServer(db.database, db.url, POOL_MAX, tenants);

    const bodyTemplate = JSON.stringify(moneyOutBody({ reference: '__REFERENCE__' }));
    const auth = { authorization: `Bearer ${service.apiKey}` };
    await expectCreated('raw', raw.baseUrl, bodyTemplate, auth);
    await expectCreated('service', service.baseUrl, bodyTemplate, auth);

    console.log('money-out benchmark: POST /v1/payments/moneyout');
    console.log(`  database: PostgreSQL ${db.version}, ${db.where}, fresh databases payout_bench (service) and payout_bench_raw, pool ${POOL_MAX} per server`);
    console.log(`  load: ${connections} connections, ${WARMUP_S} s warm-up + ${durationS} s measured per target, ` +
      'autocannon in a child process, fresh Idempotency-Key and reference per request');
    console.log(`  service: ${Object.entries(SERVICE_ENV).map(([k, v]) => `${k}=${v}`).join(' ')}: ` +
      'the request path is measured, not the payout worker');
    console.log('  raw: express 5 + pg.Pool, 3 inserts (idempotency_keys, payments, outbox_events) in one transaction, no validation/auth/ledger');

    const load = { bodyTemplate, headers: auth, connections, durationS, warmupS: WARMUP_S };
    await rawDb.checkpoint();
    const rawResult = await runLoad({ ...load, url: raw.baseUrl });
    await db.checkpoint();
    const serviceResult = await runLoad({ ...load, url: service.baseUrl });
    // Same load spread over many issuers: each tenant's balance rows are locked from its hold to
    // commit, so one tenant's payouts may serialise on them while different tenants' do not.
    await db.checkpoint();
    const spreadResult = await runLoad({ ...load, url: service.baseUrl, apiKeys: service.apiKeys });

    console.log('');
    report('raw    ', rawResult);
    report('service', serviceResult);
    report(`service, ${tenants} tenants`, spreadResult);
    const ratio = serviceResult.reqPerSec / rawResult.reqPerSec;
    // autocannon reports whole milliseconds: a p99 under 1 ms counts as 1 ms rather than dividing by 0.
    const p99Ratio = Math.max(1, serviceResult.p99Ms) / Math.max(1, rawResult.p99Ms);
    console.log(`ratio: ${ratio.toFixed(2)}`);
    console.log(`p99 ratio: ${p99Ratio.toFixed(2)}`);
    console.log(`ratio, ${tenants} tenants: ${(spreadResult.reqPerSec / rawResult.reqPerSec).toFixed(2)}  ` +
      `p99 ratio, ${tenants} tenants: ${(Math.max(1, spreadResult.p99Ms) / Math.max(1, rawResult.p99Ms)).toFixed(2)}`);
    // Verdicts only for meaningful figures: a run with failed requests says nothing about speed.
    const bad = [rawResult, serviceResult, spreadResult].filter((r) => tooManyFailures(r, MAX_BAD_FRACTION));
    if (bad.length > 0) {
      console.log(`FAILED: more than ${MAX_BAD_FRACTION * 100}% of the responses were not 2xx; the figures above are not meaningful`);
      return 1;
    }
    console.log(`target throughput ratio >= ${TARGET_RATIO}: ${ratio >= TARGET_RATIO ? 'PASS' : 'MISS'}`);
    console.log(`target p99 <= ${TARGET_P99_FACTOR}x raw: ${p99Ratio <= TARGET_P99_FACTOR ? 'PASS' : 'MISS'}`);
    return 0;
  } finally {
    await service?.close().catch((e) => console.error('closing the service failed:', e));
    await raw?.close().catch((e) => console.error('closing the raw server failed:', e));
    await db?.close().catch((e) => console.error('closing the database failed:', e));
    await rawDb?.close().catch((e) => console.error('closing the raw database failed:', e));
  }
}

function report(name: string, r: LoadSummary): void {
  const codes = Object.entries(r.statusCodes).map(([code, n]) => `${code}: ${n}`).join(', ');
  console.log(`${name}  req/s ${r.reqPerSec.toFixed(1)}  p50 ${r.p50Ms} ms  p99 ${r.p99Ms} ms  non-2xx ${r.non2xx}` +
    `  (responses ${r.responses} [${codes}], socket errors ${r.errors}, timeouts ${r.timeouts})`);
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`bench:moneyout crashed: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
    process.exit(1);
  },
);
