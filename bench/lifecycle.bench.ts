/**
 * Lifecycle benchmark (`npm run bench:lifecycle`): the service with its workers on against its raw
 * twin (bench/twin-server.ts: a hand-written express + pg service doing the same durable work, hot
 * balance row included) and against the minimal durable money-out (bench/raw-server.ts: the
 * idempotency, payment and outbox rows, no balance, no worker), with 1 tenant and with 20.
 * Every target runs on its own fresh database (`lifecycle_<target>`), so none inherits another's rows.
 * Per target: a warm-up, then a measured create run (autocannon, fresh Idempotency-Key and reference
 * per request), then the wait until every payment created is final (the sandbox answers at once):
 * lifecycle = payments created ÷ seconds from the start of the measured run until all are final;
 * then, with one tenant, a GET /v1/payments/{id} run over the payments just made. After the service's
 * one-tenant run it counts the service's idle transactions (pg_stat_database xact_commit, 10 s).
 * Prints every figure and ratio, then the targets as PASS/MISS, unless more than 1 % of some run's
 * responses were not 2xx: then it prints FAILED instead of verdicts and exits 1.
 *
 * Run:  DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:lifecycle
 * Env:  BENCH_CONNECTIONS (20), BENCH_DURATION seconds (10), BENCH_WARMUP seconds (2),
 *       BENCH_WORKERS autocannon threads (1; 0 = main thread), BENCH_TENANTS (20), BENCH_POOL (10).
 */
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { moneyOutBody } from '../test/support/test-service';
import { openBenchDatabase, type BenchDatabase } from './bench-database';
import { runLoad, tooManyFailures, type LoadSummary } from './load';
import { startRawServer } from './raw-server';
import { startServiceServer } from './service-server';
import { startTwinServer } from './twin-server';

const MAX_BAD_FRACTION = 0.01;
const IDLE_WINDOW_S = 10;
const FINAL_TIMEOUT_MS = 180_000;
/** The service as the twin runs: workers on, the sandbox answering at once, webhooks worker on. */
const LIFECYCLE_ENV = {
  WORKER_ENABLED: 'true', WEBHOOK_WORKER_ENABLED: 'true', SANDBOX_ACCEPT_DELAY_MS: '0', SANDBOX_RESULT_DELAY_MS: '0',
};

type Kind = 'service' | 'twin' | 'minimal';

interface Figures {
  readonly name: string;
  readonly create: LoadSummary;
  /** Payments per second from the measured run's start until all are final; undefined without a worker. */
  readonly lifecyclePerS?: number;
  readonly get?: LoadSummary;
  /** Transactions committed per second by the idle service. */
  readonly idleXactPerS?: number;
}

function intEnv(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer >= ${min}, got ${raw}`);
  return value;
}

const settings = {
  connections: intEnv('BENCH_CONNECTIONS', 20, 1),
  durationS: intEnv('BENCH_DURATION', 10, 1),
  warmupS: intEnv('BENCH_WARMUP', 2, 0),
  workers: intEnv('BENCH_WORKERS', 1, 0),
  tenants: intEnv('BENCH_TENANTS', 20, 2),
  pool: intEnv('BENCH_POOL', 10, 1),
};

async function main(): Promise<number> {
  const perTarget = 2 * (settings.durationS + settings.warmupS) + IDLE_WINDOW_S + 90;
  const watchdog = setTimeout(() => {
    process.stderr.write('bench:lifecycle: watchdog expired, aborting\n');
    process.exit(2);
  }, 5 * perTarget * 1000);
  watchdog.unref();

  console.log('lifecycle benchmark: POST /v1/payments/moneyout, workers on, until every payment is final; GET /v1/payments/{id}');
  console.log(`  load: ${settings.connections} connections, ${settings.warmupS} s warm-up + ${settings.durationS} s measured per run, ` +
    `pool ${settings.pool} per server, autocannon ${settings.workers > 0 ? `in ${settings.workers} worker thread(s)` : 'on the main thread'}`);
  const minimal = await measure('minimal', 1);
  const twin1 = await measure('twin', 1);
  const service1 = await measure('service', 1);
  const twinN = await measure('twin', settings.tenants);
  const serviceN = await measure('service', settings.tenants);
  const all = [minimal, twin1, service1, twinN, serviceN];

  console.log('');
  console.log('| target | create req/s | create p50 | create p99 | lifecycle/s | GET req/s | GET p99 |');
  console.log('|---|---|---|---|---|---|---|');
  for (const f of all) {
    console.log(`| ${f.name} | ${f.create.reqPerSec.toFixed(0)} | ${f.create.p50Ms} ms | ${f.create.p99Ms} ms | ` +
      `${f.lifecyclePerS?.toFixed(0) ?? '-'} | ${f.get?.reqPerSec.toFixed(0) ?? '-'} | ${f.get ? `${f.get.p99Ms} ms` : '-'} |`);
  }
  for (const f of all) {
    for (const [what, r] of [['create', f.create], ['GET', f.get]] as const) {
      if (r) console.log(`  ${f.name}, ${what}: responses ${r.responses} [${Object.entries(r.statusCodes).map(([c, n]) => `${c}: ${n}`).join(', ')}], ` +
        `socket errors ${r.errors}, timeouts ${r.timeouts}`);
    }
  }
  console.log(`  idle service: ${service1.idleXactPerS?.toFixed(2)} transactions/s (pg_stat_database xact_commit over ${IDLE_WINDOW_S} s)`);

  const ratio = (a: number | undefined, b: number | undefined) => (a !== undefined && b !== undefined && b > 0 ? a / b : Number.NaN);
  // autocannon reports whole milliseconds: a p99 under 1 ms counts as 1 ms rather than dividing by 0.
  const p99Ratio = (a: LoadSummary, b: LoadSummary) => Math.max(1, a.p99Ms) / Math.max(1, b.p99Ms);
  const checks: [string, number, '>=' | '<=', number][] = [
    ['create, service ÷ twin, 1 tenant', ratio(service1.create.reqPerSec, twin1.create.reqPerSec), '>=', 0.8],
    ['lifecycle, service ÷ twin, 1 tenant', ratio(service1.lifecyclePerS, twin1.lifecyclePerS), '>=', 0.8],
    ['create p99, service ÷ twin, 1 tenant', p99Ratio(service1.create, twin1.create), '<=', 1.5],
    ['GET, service ÷ twin', ratio(service1.get?.reqPerSec, twin1.get?.reqPerSec), '>=', 0.9],
    [`create, service ÷ twin, ${settings.tenants} tenants`, ratio(serviceN.create.reqPerSec, twinN.create.reqPerSec), '>=', 0.8],
    [`lifecycle, service ÷ twin, ${settings.tenants} tenants`, ratio(serviceN.lifecyclePerS, twinN.lifecyclePerS), '>=', 0.8],
    [`create p99, service ÷ twin, ${settings.tenants} tenants`, p99Ratio(serviceN.create, twinN.create), '<=', 1.5],
    [`create, service 1 tenant ÷ ${settings.tenants} tenants`, ratio(service1.create.reqPerSec, serviceN.create.reqPerSec), '>=', 0.9],
    [`lifecycle, service 1 tenant ÷ ${settings.tenants} tenants`, ratio(service1.lifecyclePerS, serviceN.lifecyclePerS), '>=', 0.9],
    ['create, service 1 tenant (workers on) ÷ minimal durable money-out', ratio(service1.create.reqPerSec, minimal.create.reqPerSec), '>=', 0.45],
    ['create, twin 1 tenant ÷ minimal durable money-out (for reference)', ratio(twin1.create.reqPerSec, minimal.create.reqPerSec), '>=', 0],
    ['idle service, transactions/s', service1.idleXactPerS ?? Number.NaN, '<=', 1],
  ];
  console.log('');
  const bad = all.flatMap((f) => [f.create, f.get].filter((r): r is LoadSummary => r !== undefined && tooManyFailures(r, MAX_BAD_FRACTION)));
  for (const [name, value, op, target] of checks) {
    const pass = op === '>=' ? value >= target : value <= target;
    const verdict = bad.length > 0 ? '' : target === 0 ? '' : pass ? '  PASS' : '  MISS';
    console.log(`${name}: ${value.toFixed(2)}${target === 0 ? '' : ` (target ${op} ${target})`}${verdict}`);
  }
  if (bad.length > 0) {
    console.log(`FAILED: more than ${MAX_BAD_FRACTION * 100}% of the responses of some run were not 2xx; the figures above are not meaningful`);
    return 1;
  }
  return 0;
}

/** One target on its own fresh database: create run, lifecycle, GET run (one tenant), idle count (service, one tenant). */
async function measure(kind: Kind, tenants: number): Promise<Figures> {
  const name = kind === 'minimal' ? 'minimal durable money-out (no worker)' : `${kind}, ${tenants} tenant${tenants > 1 ? 's' : ''}`;
  process.stderr.write(`bench:lifecycle: ${name}...\n`);
  const db = await openBenchDatabase(settings.pool, `lifecycle_${kind}_${tenants}`);
  const closers: (() => Promise<void>)[] = [() => db.close()];
  try {
    const service = await startServiceServer(db.database, db.url, settings.pool, tenants, kind === 'service' ? LIFECYCLE_ENV : {});
    let target: { baseUrl: string } = service;
    if (kind === 'service') {
      closers.unshift(() => service.close());
    } else {
      // The service only made the funded tenants; the twin or the minimal server takes over the database.
      await service.close();
      const server = kind === 'twin'
        ? await startTwinServer(db.url, settings.pool, new Map(service.apiKeys.map((k, i) => [k, service.tenantIds[i]!])))
        : await startRawServer(db.url, settings.pool);
      closers.unshift(() => server.close());
      target = server;
    }
    const bodyTemplate = JSON.stringify(moneyOutBody({ reference: '__REFERENCE__' }));
    const headers = { authorization: `Bearer ${service.apiKey}` };
    await expectCreated(name, target.baseUrl, bodyTemplate, headers);
    const load = {
      url: target.baseUrl, bodyTemplate, headers, apiKeys: tenants > 1 ? service.apiKeys : [], connections: settings.connections, workers: settings.workers,
    };
    const withWorker = kind !== 'minimal';
    if (settings.warmupS > 0) {
      await runLoad({ ...load, durationS: settings.warmupS, warmupS: 0 });
      if (withWorker) await allFinal(db);
    }
    await db.checkpoint();
    const started = Date.now();
    const create = await runLoad({ ...load, durationS: settings.durationS, warmupS: 0 });
    let lifecyclePerS: number | undefined;
    if (withWorker) {
      await allFinal(db);
      lifecyclePerS = create.ok2xx / ((Date.now() - started) / 1000);
    }
    let idleXactPerS: number | undefined;
    if (kind === 'service' && tenants === 1) idleXactPerS = await idleTransactionsPerS(db);
    let get: LoadSummary | undefined;
    if (withWorker && tenants === 1) {
      const ids = (await db.database.orm.em.getConnection().execute<{ id: string }[]>('select id from payments order by random() limit 1000')).map((r) => r.id);
      get = await runLoad({ ...load, method: 'GET', paymentIds: ids, durationS: settings.durationS, warmupS: settings.warmupS });
    }
    return { name, create, lifecyclePerS, get, idleXactPerS };
  } finally {
    for (const close of closers) await close().catch((e) => console.error(`closing ${name} failed:`, e));
  }
}

/** Waits until no payment of the database is in a non-final state. */
async function allFinal(db: BenchDatabase): Promise<void> {
  const deadline = Date.now() + FINAL_TIMEOUT_MS;
  const conn = db.database.orm.em.getConnection();
  for (;;) {
    const [row] = await conn.execute<{ n: string }[]>("select count(*) as n from payments where status in ('initiated', 'provider_accepted')");
    if (Number(row?.n) === 0) return;
    if (Date.now() > deadline) throw new Error(`${row?.n} payments still not final after ${FINAL_TIMEOUT_MS} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Transactions the bench database committed per second over IDLE_WINDOW_S, counted from another database. */
async function idleTransactionsPerS(db: BenchDatabase): Promise<number> {
  const url = new URL(db.url);
  const dbName = url.pathname.slice(1);
  url.pathname = '/postgres';
  const client = new Client({ connectionString: url.toString() });
  await client.connect();
  try {
    // Backends flush their counts about once a second: settle first, so the window sees idle work only.
    await new Promise((r) => setTimeout(r, 3_000));
    const commits = async () => {
      await client.query('select pg_stat_clear_snapshot()');
      return Number((await client.query<{ n: string }>('select xact_commit as n from pg_stat_database where datname = $1', [dbName])).rows[0]?.n);
    };
    const before = await commits();
    await new Promise((r) => setTimeout(r, IDLE_WINDOW_S * 1000));
    return (await commits() - before) / IDLE_WINDOW_S;
  } finally {
    await client.end();
  }
}

/** One request before the load: a benchmark of error responses would be worthless. */
async function expectCreated(name: string, baseUrl: string, bodyTemplate: string, headers: Record<string, string>): Promise<void> {
  const response = await fetch(`${baseUrl}/v1/payments/moneyout`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID(), ...headers },
    body: bodyTemplate.replace('__REFERENCE__', `ref-${randomUUID()}`),
  });
  if (response.status !== 201) throw new Error(`${name}: first money-out answered ${response.status}: ${await response.text()}`);
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`bench:lifecycle crashed: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
    process.exit(1);
  },
);
