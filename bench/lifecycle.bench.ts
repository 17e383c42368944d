/**
 * Lifecycle benchmark (`npm run bench:lifecycle`): the service with its workers on against its raw
 * twin (bench/twin-server.ts: a hand-written express + pg service doing the same durable work, hot
 * balance row included) and against the minimal durable money-out (bench/raw-server.ts: the
 * idempotency, payment and outbox rows, no balance, no worker), with 1 tenant and with 20.
 * Every target runs on its own fresh database (`lifecycle_<target>`), so none inherits another's rows.
 * The five targets run side by side in this process, idle but for the one under load, and are
 * measured in interleaved bursts (bench/lifecycle-rounds.ts): each round gives every target one
 * burst, in an order that rotates from round to round, so a shared host's slow and fast seconds
 * fall on every target alike instead of on whichever ran then. Per burst: a create run (autocannon
 * in its own process, fresh Idempotency-Key and reference per request), then the wait until every
 * payment created is final (the sandbox answers at once). A target's figures sum its bursts:
 * create = requests ÷ seconds of load; lifecycle = payments created ÷ seconds from each burst's
 * start until all its payments were final; latency percentiles of the merged histograms. Then the
 * one-tenant service and twin take turns with GET /v1/payments/{id} bursts over payments they made,
 * and last the one-tenant service's idle transactions are counted (pg_stat_database xact_commit, 10 s).
 * Prints every figure and ratio, then the targets as PASS/MISS, unless more than 1 % of some
 * target's responses were not 2xx: then it prints FAILED instead of verdicts and exits 1.
 *
 * BENCH_LIVE_RATES=1 adds a sixth target, the one-tenant service with its tenant live and priced
 * from the Coinbase, Luno and VALR rate simulators (bench/live-rates-target.ts), in the same rounds,
 * and prints it against the static one-tenant service (catalog rates): create and lifecycle ratios.
 *
 * Run:  DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:lifecycle
 * Env:  BENCH_CONNECTIONS (20), BENCH_DURATION measured seconds per target (20), BENCH_BURST seconds
 *       per burst (2), BENCH_WARMUP seconds (2), BENCH_TENANTS (20), BENCH_POOL (10), BENCH_LIVE_RATES (0).
 */
import { Client } from 'pg';
import { tooManyFailures, type LoadSummary } from './load';
import { measureCreates, measureGets, openTarget, type Target } from './lifecycle-rounds';
import { startLiveRates, type LiveRates } from './live-rates-target';

const MAX_BAD_FRACTION = 0.01;
const IDLE_WINDOW_S = 10;

function intEnv(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer >= ${min}, got ${raw}`);
  return value;
}

const settings = {
  connections: intEnv('BENCH_CONNECTIONS', 20, 1),
  durationS: intEnv('BENCH_DURATION', 20, 1),
  burstS: intEnv('BENCH_BURST', 2, 1),
  warmupS: intEnv('BENCH_WARMUP', 2, 0),
  tenants: intEnv('BENCH_TENANTS', 20, 2),
  pool: intEnv('BENCH_POOL', 10, 1),
  liveRates: intEnv('BENCH_LIVE_RATES', 0, 0) === 1,
};

async function main(): Promise<number> {
  const rounds = Math.max(1, Math.ceil(settings.durationS / settings.burstS));
  const perRound = (settings.liveRates ? 6 : 5) * (settings.burstS + 20) + 2 * settings.burstS;
  const watchdog = setTimeout(() => {
    process.stderr.write('bench:lifecycle: watchdog expired, aborting\n');
    process.exit(2);
  }, (600 + rounds * perRound) * 1000);
  watchdog.unref();

  console.log('lifecycle benchmark: POST /v1/payments/moneyout, workers on, until every payment is final; GET /v1/payments/{id}');
  console.log(`  load: ${settings.connections} connections, ${settings.warmupS} s warm-up, then ${rounds} round(s) of one ${settings.burstS} s burst ` +
    `per target (interleaved, rotating order); pool ${settings.pool} per server; autocannon in a child process per burst`);
  const targets: Target[] = [];
  let liveRates: LiveRates | undefined;
  try {
    for (const [kind, tenants] of [['minimal', 1], ['twin', 1], ['service', 1], ['twin', settings.tenants], ['service', settings.tenants]] as const) {
      targets.push(await openTarget(kind, tenants, settings));
    }
    if (settings.liveRates) {
      liveRates = await startLiveRates();
      targets.push(await openTarget('service-live', 1, settings, liveRates));
    }
    const creates = await measureCreates(targets, rounds, settings);
    const [minimal, twin1, service1, twinN, serviceN] = creates as [typeof creates[0], typeof creates[0], typeof creates[0], typeof creates[0], typeof creates[0]];
    const serviceLive = creates[5];
    const gets = await measureGets([targets[1]!, targets[2]!], rounds, settings);
    const [twinGet, serviceGet] = gets as [LoadSummary, LoadSummary];
    const idleXactPerS = await idleTransactionsPerS(targets[2]!.url);

    console.log('');
    console.log('| target | create req/s | create p50 | create p99 | lifecycle/s | GET req/s | GET p99 |');
    console.log('|---|---|---|---|---|---|---|');
    const getOf = new Map([[twin1.name, twinGet], [service1.name, serviceGet]]);
    for (const f of creates) {
      const get = getOf.get(f.name);
      console.log(`| ${f.name} | ${f.create.reqPerSec.toFixed(0)} | ${f.create.p50Ms} ms | ${f.create.p99Ms} ms | ` +
        `${f.lifecyclePerS?.toFixed(0) ?? '-'} | ${get?.reqPerSec.toFixed(0) ?? '-'} | ${get ? `${get.p99Ms} ms` : '-'} |`);
    }
    for (const [name, what, r] of [...creates.map((f) => [f.name, 'create', f.create] as const), [twin1.name, 'GET', twinGet] as const, [service1.name, 'GET', serviceGet] as const]) {
      console.log(`  ${name}, ${what}: responses ${r.responses} in ${r.seconds.toFixed(1)} s [${Object.entries(r.statusCodes).map(([c, n]) => `${c}: ${n}`).join(', ')}], ` +
        `socket errors ${r.errors}, timeouts ${r.timeouts}`);
    }
    for (const f of creates) console.log(`  ${f.name}, create req/s per burst: ${f.perBurst.map((x) => x.toFixed(0)).join(' ')}`);
    console.log(`  idle service: ${idleXactPerS.toFixed(2)} transactions/s (pg_stat_database xact_commit over ${IDLE_WINDOW_S} s)`);

    const ratio = (a: number | undefined, b: number | undefined) => (a !== undefined && b !== undefined && b > 0 ? a / b : Number.NaN);
    // autocannon reports whole milliseconds: a p99 under 1 ms counts as 1 ms rather than dividing by 0.
    const p99Ratio = (a: LoadSummary, b: LoadSummary) => Math.max(1, a.p99Ms) / Math.max(1, b.p99Ms);
    const checks: [string, number, '>=' | '<=', number][] = [
      ['create, service ÷ twin, 1 tenant', ratio(service1.create.reqPerSec, twin1.create.reqPerSec), '>=', 0.8],
      ['lifecycle, service ÷ twin, 1 tenant', ratio(service1.lifecyclePerS, twin1.lifecyclePerS), '>=', 0.8],
      ['create p99, service ÷ twin, 1 tenant', p99Ratio(service1.create, twin1.create), '<=', 1.5],
      ['GET, service ÷ twin', ratio(serviceGet.reqPerSec, twinGet.reqPerSec), '>=', 0.9],
      [`create, service ÷ twin, ${settings.tenants} tenants`, ratio(serviceN.create.reqPerSec, twinN.create.reqPerSec), '>=', 0.8],
      [`lifecycle, service ÷ twin, ${settings.tenants} tenants`, ratio(serviceN.lifecyclePerS, twinN.lifecyclePerS), '>=', 0.8],
      [`create p99, service ÷ twin, ${settings.tenants} tenants`, p99Ratio(serviceN.create, twinN.create), '<=', 1.5],
      [`create, service 1 tenant ÷ ${settings.tenants} tenants`, ratio(service1.create.reqPerSec, serviceN.create.reqPerSec), '>=', 0.9],
      [`lifecycle, service 1 tenant ÷ ${settings.tenants} tenants`, ratio(service1.lifecyclePerS, serviceN.lifecyclePerS), '>=', 0.9],
      ['create, service 1 tenant (workers on) ÷ minimal durable money-out', ratio(service1.create.reqPerSec, minimal.create.reqPerSec), '>=', 0.45],
      ['create, twin 1 tenant ÷ minimal durable money-out (for reference)', ratio(twin1.create.reqPerSec, minimal.create.reqPerSec), '>=', 0],
      ['idle service, transactions/s', idleXactPerS, '<=', 1],
      // Live rates are read from memory (docs/decisions.md § FX quotes: live rates): the same figures within noise.
      ...(serviceLive ? [
        ['create, service 1 tenant, live rates ÷ static rates', ratio(serviceLive.create.reqPerSec, service1.create.reqPerSec), '>=', 0.9],
        ['lifecycle, service 1 tenant, live rates ÷ static rates', ratio(serviceLive.lifecyclePerS, service1.lifecyclePerS), '>=', 0.9],
        ['create p99, service 1 tenant, live rates ÷ static rates', p99Ratio(serviceLive.create, service1.create), '<=', 1.5],
      ] as [string, number, '>=' | '<=', number][] : []),
    ];
    console.log('');
    const bad = [...creates.map((f) => f.create), twinGet, serviceGet].filter((r) => tooManyFailures(r, MAX_BAD_FRACTION));
    for (const [name, value, op, target] of checks) {
      const pass = op === '>=' ? value >= target : value <= target;
      const verdict = bad.length > 0 ? '' : target === 0 ? '' : pass ? '  PASS' : '  MISS';
      console.log(`${name}: ${value.toFixed(2)}${target === 0 ? '' : ` (target ${op} ${target})`}${verdict}`);
    }
    if (bad.length > 0) {
      console.log(`FAILED: more than ${MAX_BAD_FRACTION * 100}% of the responses of some target were not 2xx; the figures above are not meaningful`);
      return 1;
    }
    return 0;
  } finally {
    for (const target of targets.reverse()) await target.close().catch((e) => console.error(`closing ${target.name} failed:`, e));
    await liveRates?.close();
  }
}

/** Transactions the database at `databaseUrl` committed per second over IDLE_WINDOW_S, counted from another database. */
async function idleTransactionsPerS(databaseUrl: string): Promise<number> {
  const url = new URL(databaseUrl);
  const dbName = url.pathname.slice(1);
  url.pathname = '/postgres';
  const client = new Client({ connectionString: url.toString() });
  await client.connect();
  try {
    // A backend that goes idle flushes its counts up to 10 s later (PostgreSQL's idle stats
    // interval): settle past that, so the window counts idle work only, not the load's tail.
    await new Promise((r) => setTimeout(r, 12_000));
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

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`bench:lifecycle crashed: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
    process.exit(1);
  },
);
