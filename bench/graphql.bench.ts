/**
 * GraphQL benchmark, in one run on a fresh database `payout_bench_graphql`:
 *  1. throughput of GraphQL `payment(id)` (every field) vs REST GET /v1/payments/{id}, autocannon,
 *     same service, same connections, in 1 s bursts alternating between the two (BENCH_DURATION s
 *     each in all); prints req/s, p50/p99 and the ratios (targets: throughput >= 0.8, p99 <= 1.5x);
 *  2. BENCH_SUBSCRIBERS (1000) graphql-ws subscribers of one tenant (two selection shapes, 90/10)
 *     in a child process; payments are created and moved one event at a time (BENCH_PAYMENTS, 20,
 *     so 60 events, after 2 warm-up payments) and each event's latency is measured from the
 *     moment its transaction has committed (the use case returned) to its arrival at every
 *     subscriber: p50/p99 over all (event, subscriber) pairs and over each event's last arrival
 *     (targets p99 < 35 ms); and the server RSS the subscribers add (target < 30 MB per 1000).
 * The service runs with NODE_ENV=production, its workers off (the bench makes every transition).
 * BENCH_SUBSCRIPTIONS=per-subscriber measures graphql-ws's default (one execution and one
 * serialisation per subscriber) instead of the shipped shared execution, for comparison.
 *
 * Run:  npm run bench:graphql                 (embedded PostgreSQL under .data/bench-graphql, port 54359)
 *       DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:graphql
 * Env:  BENCH_DURATION s (10), BENCH_CONNECTIONS (20), BENCH_SUBSCRIBERS (1000), BENCH_PAYMENTS (20),
 *       BENCH_RATE_LIMIT per minute (0 = off, so the throughput ratio compares the transports, not
 *       the rate limiter's database write that both pay equally).
 */
// First: libraries read NODE_ENV when they load.
import './production-env';
import autocannon from 'autocannon';
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { isDeepStrictEqual } from 'node:util';
import { Client, type ClientConfig } from 'pg';
import { GraphqlGateway } from '../src/adapters/graphql/graphql-gateway';
import { PgNotificationListener } from '../src/adapters/notifications/notification-listener';
import { DepositReadRepository } from '../src/adapters/persistence/deposit.repository';
import { PaymentEventRepository } from '../src/adapters/persistence/payment-event.repository';
import { sha256Hasher } from '../src/adapters/providers/system';
import { generateApiKey, storedKey } from '../src/app/api-keys';
import { loadConfig } from '../src/app/config';
import { buildContainer } from '../src/app/container';
import { openDatabase } from '../src/app/database';
import { startEmbeddedDatabase, type EmbeddedDatabase } from '../src/app/embedded-database';
import { createLogger } from '../src/app/logger';
import { newTenant } from '../src/core/auth/tenant';
import { applyMove } from '../src/core/payments/advance-payment';
import { PAYMENT_FIELDS, restPaymentInGraphql } from '../test/support/graphql-client';
import { compileProxyTrust } from '../src/adapters/access/client-address';
import { subscriberChildMain, type SubscriberReport } from '../test/support/graphql-subscribers';
import { moneyOutBody } from '../test/support/test-service';

const DATABASE = 'payout_bench_graphql';
const WARMUP_PAYMENTS = 2;
/** Seconds of one load burst; REST and GraphQL alternate burst by burst. */
const BURST_S = 1;
const int = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const now = () => performance.timeOrigin + performance.now();
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const ms = (v: number) => `${v.toFixed(1)} ms`;

async function main(): Promise<number> {
  const duration = int('BENCH_DURATION', 10);
  const connections = int('BENCH_CONNECTIONS', 20);
  const subscribers = int('BENCH_SUBSCRIBERS', 1000);
  const payments = int('BENCH_PAYMENTS', 20);
  const shared = process.env.BENCH_SUBSCRIPTIONS !== 'per-subscriber';
  const rateLimit = int('BENCH_RATE_LIMIT', 0);
  setTimeout(() => (console.error('bench:graphql: watchdog expired'), process.exit(2)), (4 * duration + 240) * 1000).unref();

  let embedded: EmbeddedDatabase | undefined;
  let serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    embedded = await startEmbeddedDatabase({ dataDir: path.resolve(__dirname, '../.data/bench-graphql'), port: 54359, databaseName: 'postgres' });
    serverUrl = embedded.url;
  }
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${DATABASE} with (force)`);
  await admin.query(`create database ${DATABASE}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${DATABASE}`;
  const database = await openDatabase(url.toString(), 10);

  const config = loadConfig({
    NODE_ENV: 'production', LOG_LEVEL: 'silent', DATABASE_URL: url.toString(), PORT: '0', HOST: '127.0.0.1', DB_POOL_MAX: '10',
    WORKER_ENABLED: 'false', WEBHOOK_WORKER_ENABLED: 'false', RATE_LIMIT_PER_MINUTE: String(rateLimit),
    WS_MAX_CONNECTIONS_PER_KEY: String(subscribers + 100), WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'),
  });
  const logger = createLogger('silent');
  const container = buildContainer(config, database.orm, logger);
  await container.startWorkers();
  const server: Server = await new Promise((resolve) => {
    const s = container.http.listen(0, '127.0.0.1', () => resolve(s));
  });
  // The baseline gateway hears payments on a listener of its own, next to the container's.
  const listener = new PgNotificationListener(database.orm.em.getConnection().getConnectionOptions() as ClientConfig, logger);
  const gateway = shared ? container.graphql : new GraphqlGateway({
    app: container.application, paymentEvents: new PaymentEventRepository(database.orm.em), depositChanges: new DepositReadRepository(database.orm.em), listener,
    nodeEnv: 'production', logger, sharedSubscriptions: false,
    access: container.access, trustProxy: compileProxyTrust(config.TRUST_PROXY), maxConnectionsPerKey: config.WS_MAX_CONNECTIONS_PER_KEY,
  });
  if (!shared) await listener.start();
  gateway.attach(server);
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const tenant = newTenant({ id: container.ids.next('ten'), name: 'GraphQL bench', environment: 'sandbox', createdAt: new Date() });
  const apiKey = generateApiKey('sandbox');
  await container.tenants.createTenantWithKeys(tenant, [storedKey(apiKey, 'issuer', tenant.id, 'bench', { ids: container.ids, hasher: sha256Hasher, now: new Date() })]);
  await container.admin.fundSandboxTenant(tenant.id, { currency: 'USDC', amount: '1000000000' });
  const create = async () => {
    const result = await container.application.createMoneyOut(tenant.id, randomUUID(), moneyOutBody() as never);
    if (!result.ok) throw new Error(result.message);
    return result.value.payment.id;
  };

  // 1. Subscribers in a child process (this process is the server), first, while the heap is still small.
  v8.setFlagsFromString('--expose_gc');
  const gc = vm.runInNewContext('gc') as () => void;
  const memory = () => {
    gc();
    gc();
    const m = process.memoryUsage();
    return { rss: m.rss, heap: m.heapUsed + m.external };
  };
  const before = memory();
  const queries = [`subscription { paymentUpdated { ${PAYMENT_FIELDS} } }`, 'subscription { paymentUpdated { id status updatedAt } }'];
  const plan = { url: `${baseUrl.replace('http', 'ws')}/graphql`, apiKey, count: subscribers, queries: [...Array(9).fill(queries[0]), queries[1]] };
  const child = fork(__filename, ['subscribers', JSON.stringify(plan)], { execArgv: ['-r', 'ts-node/register/transpile-only'] });
  const inbox = listen(child);
  await inbox.next('ready', 120_000);
  const registered = () => (shared ? gateway.groups.subscriberCount : gateway.bus.listenerCount(tenant.id));
  while (registered() < subscribers) await new Promise((r) => setTimeout(r, 20));
  const subscribed = memory();
  const groups = gateway.groups.groupCount;

  const commits: number[] = [];
  const event = async (commit: () => Promise<unknown>) => {
    await commit();
    commits.push(now());
    await inbox.next('all', 30_000);
  };
  for (let p = 0; p < WARMUP_PAYMENTS + payments; p++) {
    const id = await create();
    commits.push(now());
    await inbox.next('all', 30_000);
    await event(() => applyMove(container.advanceDeps, id, 'accept', { providerRef: `bench-${id}` }));
    await event(() => applyMove(container.advanceDeps, id, 'complete', {}));
  }
  const afterEvents = memory();
  child.send({ type: 'report' });
  const report = (await inbox.next('report', 60_000)) as unknown as SubscriberReport;
  child.send({ type: 'exit' });

  // 2. Throughput: the same payment through both transports.
  const paymentId = await create();
  const auth = { authorization: `Bearer ${apiKey}` };
  const graphqlBody = JSON.stringify({ query: `query P($id: ID!) { payment(id: $id) { ${PAYMENT_FIELDS} } }`, variables: { id: paymentId } });
  const rest = await (await fetch(`${baseUrl}/v1/payments/${paymentId}`, { headers: auth })).json();
  const viaGraphql = (await (await fetch(`${baseUrl}/graphql`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: graphqlBody })).json()) as { data?: { payment?: unknown } };
  // Each transport spells enum values its own way (REST `initiated`, GraphQL `INITIATED`): compared as GraphQL writes them.
  if (!isDeepStrictEqual(viaGraphql.data?.payment, restPaymentInGraphql(rest as { status: string }))) {
    throw new Error(`GraphQL and REST disagree on the payment: ${JSON.stringify(viaGraphql.data?.payment)} vs ${JSON.stringify(rest)}`);
  }
  const restOpts: autocannon.Options = { url: `${baseUrl}/v1/payments/${paymentId}`, headers: auth };
  const gqlOpts: autocannon.Options = { url: `${baseUrl}/graphql`, method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: graphqlBody };
  const { rest: restLoad, graphql: gqlLoad } = await interleaved({ rest: restOpts, graphql: gqlOpts }, connections, duration);

  const skip = WARMUP_PAYMENTS * 3;
  const all: number[] = [];
  const last: number[] = [];
  for (let e = skip; e < commits.length; e++) {
    const arrivals = report.times.map((t) => (t[e] ?? NaN) - commits[e]!);
    all.push(...arrivals);
    last.push(Math.max(...arrivals));
  }
  all.sort((x, y) => x - y);
  last.sort((x, y) => x - y);
  const statuses = (report.samples[0] ?? []).map((m) => JSON.parse(m).payload.data.paymentUpdated.status);
  const correct = statuses.length === commits.length && statuses.every((s, i) => s === ['INITIATED', 'PROVIDER_ACCEPTED', 'SUCCEEDED'][i % 3]);

  const ratio = gqlLoad.rps / restLoad.rps;
  const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
  const addedMb = (subscribed.rss - before.rss) / 2 ** 20;
  console.log(`GraphQL benchmark (PostgreSQL ${embedded ? 'embedded' : 'external'}, NODE_ENV=production, rate limit ${rateLimit || 'off'}, ${connections} connections, `
    + `${duration} s each, in ${BURST_S} s bursts alternating REST and GraphQL, after 2 s warm-up each)`);
  console.log(`  REST    GET /v1/payments/{id}: ${restLoad.rps.toFixed(0)} req/s, p50 ${restLoad.p50} ms, p99 ${restLoad.p99} ms, errors/non-2xx ${restLoad.non2xx}`);
  console.log(`  GraphQL payment(id), 14 fields: ${gqlLoad.rps.toFixed(0)} req/s, p50 ${gqlLoad.p50} ms, p99 ${gqlLoad.p99} ms, errors/non-2xx ${gqlLoad.non2xx}`);
  const p99Ratio = gqlLoad.p99 / restLoad.p99;
  console.log(`  throughput ratio GraphQL/REST: ${ratio.toFixed(2)} (target >= 0.80: ${ratio >= 0.8 ? 'met' : 'NOT met'}); `
    + `p99 ratio ${p99Ratio.toFixed(2)} (target <= 1.50: ${p99Ratio <= 1.5 ? 'met' : 'NOT met'})`);
  console.log(`subscriptions: ${subscribers} graphql-ws subscribers of one tenant, 2 selection shapes, ${shared ? `shared execution (${groups} groups)` : 'per-subscriber execution (graphql-ws default)'}`);
  console.log(`  ${commits.length - skip} events (${payments} payments x initiated/provider_accepted/succeeded), one at a time, after ${skip} warm-up events`);
  console.log(`  commit -> receipt, every (event, subscriber): p50 ${ms(pct(all, 50))}, p99 ${ms(pct(all, 99))}, max ${ms(all[all.length - 1] ?? NaN)}`);
  console.log(`  commit -> receipt at the last subscriber, per event: p50 ${ms(pct(last, 50))}, p99 ${ms(pct(last, 99))}`);
  console.log(`  target p99 < 35 ms: ${pct(all, 99) < 35 ? 'met' : 'NOT met'}; payloads in order and complete: ${correct ? 'yes' : 'NO'}`);
  console.log(`  server RSS: ${mb(before.rss)} MB before, +${addedMb.toFixed(1)} MB with the subscribers connected, ` +
    `+${mb(afterEvents.rss - before.rss)} MB after the events (target < 30 MB per 1000: ${addedMb * (1000 / subscribers) < 30 ? 'met' : 'NOT met'})`);
  console.log(`  server heap + external (after GC): +${mb(subscribed.heap - before.heap)} MB connected, +${mb(afterEvents.heap - before.heap)} MB after the events`);

  await listener.stop();
  await gateway.stop();
  await container.graphql.closeRealtime();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await container.stop();
  await database.close();
  await embedded?.stop();
  return correct && restLoad.non2xx === 0 && gqlLoad.non2xx === 0 ? 0 : 1;
}

/**
 * Loads each target in turn, BURST_S seconds at a time, the order alternating each round, until each
 * has had `durationS` seconds (after a 2 s warm-up each): on a shared machine the load of other
 * processes then weighs on both targets alike, where two back-to-back runs compared two different
 * moments (docs/decisions.md § Performance, "Benchmarks compare in interleaved bursts"). Per target:
 * req/s over its bursts, p50/p99 of their merged latency histograms, non-2xx plus errors.
 */
async function interleaved<K extends string>(targets: Record<K, autocannon.Options>, connections: number, durationS: number) {
  const names = Object.keys(targets) as K[];
  const runs = Object.fromEntries(names.map((n) => [n, [] as autocannon.Result[]])) as Record<K, autocannon.Result[]>;
  const burst = (name: K, seconds: number) =>
    autocannon({ ...targets[name], connections, duration: seconds, skipAggregateResult: true } as autocannon.Options);
  for (const name of names) await burst(name, 2);
  for (let round = 0; round * BURST_S < durationS; round++) {
    const order = round % 2 === 0 ? names : [...names].reverse();
    for (const name of order) runs[name].push(await burst(name, Math.min(BURST_S, durationS - round * BURST_S)));
  }
  const summary = (results: autocannon.Result[]) => {
    // autocannon's own merge of raw results (exported, missing from its type definitions); it sums
    // status counts into the first result's object, so it gets copies.
    const merged = aggregate(results.map((r) => ({ ...r, statusCodeStats: {} })), { url: 'http://127.0.0.1' });
    const raw = results as unknown as { totalCompletedRequests: number; duration: number; non2xx: number; errors: number }[];
    const completed = raw.reduce((t, r) => t + r.totalCompletedRequests, 0);
    const seconds = raw.reduce((t, r) => t + r.duration, 0);
    return { rps: completed / seconds, p50: merged.latency.p50, p99: merged.latency.p99, non2xx: raw.reduce((t, r) => t + r.non2xx + r.errors, 0) };
  };
  return Object.fromEntries(names.map((n) => [n, summary(runs[n])])) as Record<K, ReturnType<typeof summary>>;
}

const aggregate = (autocannon as unknown as { aggregateResult(results: readonly unknown[], opts: { url: string }): autocannon.Result }).aggregateResult;

/** Waits for IPC messages of a given type from the subscribers' process, in order. */
function listen(child: ChildProcess): { next(type: string, timeoutMs: number): Promise<Record<string, unknown>> } {
  const queue: Record<string, unknown>[] = [];
  let wake: (() => void) | undefined;
  child.on('message', (m: Record<string, unknown>) => {
    if (m.type === 'error') console.error(`subscribers failed: ${String(m.message)}`);
    queue.push(m);
    wake?.();
  });
  child.on('exit', (code) => code !== 0 && queue.push({ type: 'error', message: `exit ${code}` }) && wake?.());
  return {
    async next(type, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const i = queue.findIndex((m) => m.type === type || m.type === 'error');
        if (i >= 0) {
          const [m] = queue.splice(i, 1);
          if (m!.type === 'error') throw new Error(`subscribers: ${String(m!.message)}`);
          return m!;
        }
        if (Date.now() > deadline) throw new Error(`timed out waiting for '${type}' from the subscribers`);
        await new Promise<void>((r) => ((wake = r), setTimeout(r, 50)));
      }
    },
  };
}

if (process.argv[2] === 'subscribers') {
  subscriberChildMain();
} else {
  main().then((code) => process.exit(code), (error) => {
    console.error(error);
    process.exit(1);
  });
}
