/**
 * Profiling helper for the GraphQL read path (docs/decisions.md § Performance): starts the service
 * (NODE_ENV=production, workers off, rate limit off) on a fresh database `payout_bench_graphql_profile`,
 * creates one payment, then loads ONE target with autocannon in a child process (so the load
 * generator is not in the profile) and prints req/s, p50, p99 and the server process's CPU time per
 * request (user + system; steadier than req/s on a shared machine). Measures nothing the benchmark
 * does not: it exists to be run under `node --cpu-prof` and compared with `npm run bench:graphql`.
 *
 * Run:  DATABASE_URL=postgres://postgres@127.0.0.1:5432/test \
 *         node --cpu-prof --cpu-prof-dir=.data/profiles -r ts-node/register/transpile-only bench/graphql-profile.ts graphql
 * Args: `graphql` (payment(id), every field), `rest` (GET /v1/payments/{id}) or `both` (1 s bursts
 *       alternating, CPU time per request of each).
 *       Or, with BENCH_CPU_PROFILE=<dir>, without `--cpu-prof`: one profile per target, of the load
 *       only (no start-up, no other target), written as <dir>/<target>.cpuprofile.
 * Env:  BENCH_DURATION s (10), BENCH_CONNECTIONS (20), BENCH_CPU_PROFILE (unset).
 */
// First: libraries read NODE_ENV when they load.
import './production-env';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session, type Profiler } from 'node:inspector';
import path from 'node:path';
import { moneyOutBody } from '../test/support/test-service';
import { PAYMENT_FIELDS } from '../test/support/graphql-client';
import { openBenchDatabase } from './bench-database';
import { startServiceServer } from './service-server';

const int = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

type Target = 'rest' | 'graphql';

async function main(): Promise<void> {
  const targets: Target[] = process.argv[2] === 'both' ? ['rest', 'graphql'] : [process.argv[2] === 'rest' ? 'rest' : 'graphql'];
  const database = await openBenchDatabase(10, 'payout_bench_graphql_profile');
  const service = await startServiceServer(database.database, database.url, 10, 1, { RATE_LIMIT_PER_MINUTE: '0' });
  const created = await service.container.application.createMoneyOut(service.tenantIds[0]!, randomUUID(), moneyOutBody() as never);
  if (!created.ok) throw new Error(created.message);
  const paymentId = created.value.payment.id;
  const auth = { authorization: `Bearer ${service.apiKey}` };
  const options: Record<Target, object> = {
    rest: { url: `${service.baseUrl}/v1/payments/${paymentId}`, headers: auth },
    graphql: {
      url: `${service.baseUrl}/graphql`, method: 'POST', headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ query: `query P($id: ID!) { payment(id: $id) { ${PAYMENT_FIELDS} } }`, variables: { id: paymentId } }),
    },
  };
  const connections = int('BENCH_CONNECTIONS', 20);
  const profiler = process.env.BENCH_CPU_PROFILE ? loadProfiler(process.env.BENCH_CPU_PROFILE) : undefined;
  const duration = int('BENCH_DURATION', 10);
  // One target: one run of `duration` s. Both: 1 s bursts alternating (the order flips each round), `duration` s each.
  const burstS = targets.length > 1 ? 1 : duration;
  const totals = Object.fromEntries(targets.map((t) => [t, { requests: 0, seconds: 0, cpuUs: 0, non2xx: 0 }])) as Record<Target, { requests: number; seconds: number; cpuUs: number; non2xx: number }>;
  for (let round = 0; round * burstS < duration; round++) {
    for (const target of round % 2 === 0 ? targets : [...targets].reverse()) {
      const run = { ...options[target], connections, duration: burstS };
      const script = `require('autocannon')(${JSON.stringify(run)}, (e, r) => { if (e) throw e; `
        + 'console.log(JSON.stringify({ requests: r.requests.total, non2xx: r.non2xx + r.errors })); })';
      await profiler?.resume(target);
      const cpu = process.cpuUsage();
      const out = await new Promise<string>((resolve, reject) => {
        execFile(process.execPath, ['-e', script], { cwd: process.cwd() }, (error, stdout, stderr) => (error ? reject(new Error(stderr)) : resolve(stdout)));
      });
      const used = process.cpuUsage(cpu);
      await profiler?.pause(target);
      const result = JSON.parse(out) as { requests: number; non2xx: number };
      const total = totals[target];
      total.requests += result.requests;
      total.seconds += burstS;
      total.cpuUs += used.user + used.system;
      total.non2xx += result.non2xx;
    }
  }
  profiler?.write();
  for (const target of targets) {
    const t = totals[target];
    // CPU time of this (the server's) process per request: less sensitive to a shared machine's load than req/s.
    console.log(`${target}: ${(t.requests / t.seconds).toFixed(0)} req/s, server CPU ${(t.cpuUs / t.requests).toFixed(0)} us/request, non-2xx ${t.non2xx}`);
  }
  await service.close();
  await database.close();
}

/**
 * One V8 CPU profile per target, sampling only while that target's load runs: a profile is started
 * per burst and its samples appended to the target's, so start-up and the other target stay out.
 */
function loadProfiler(dir: string) {
  const session = new Session();
  session.connect();
  const post = <T>(method: string, params?: object) => new Promise<T>((resolve, reject) => {
    session.post(method, params ?? {}, (error, result) => (error ? reject(error) : resolve(result as T)));
  });
  const profiles = new Map<Target, Profiler.Profile>();
  let enabled = false;
  return {
    async resume(_target: Target) {
      if (!enabled) await post('Profiler.enable');
      enabled = true;
      await post('Profiler.start');
    },
    async pause(target: Target) {
      const { profile } = await post<Profiler.StopReturnType>('Profiler.stop');
      profiles.set(target, merge(profiles.get(target), profile));
    },
    write() {
      mkdirSync(dir, { recursive: true });
      for (const [target, profile] of profiles) writeFileSync(path.join(dir, `${target}.cpuprofile`), JSON.stringify(profile));
      session.disconnect();
    },
  };
}

/** `next`'s samples appended to `into`'s (node ids of `next` renumbered after `into`'s), as one profile. */
function merge(into: Profiler.Profile | undefined, next: Profiler.Profile): Profiler.Profile {
  if (!into) return next;
  const offset = Math.max(...into.nodes.map((n) => n.id));
  const nodes = next.nodes.map((n) => ({ ...n, id: n.id + offset, children: n.children?.map((c) => c + offset) }));
  // The second profile's root hangs under the first's, so tools that expect one root read one tree.
  const root = into.nodes.find((n) => n.id === 1)!;
  const rootNext = nodes.find((n) => n.id === 1 + offset)!;
  root.children = [...(root.children ?? []), ...(rootNext.children ?? [])];
  const kept = nodes.filter((n) => n !== rootNext);
  const samples = (next.samples ?? []).map((s) => (s === 1 + offset ? 1 : s + offset));
  return {
    ...into, nodes: [...into.nodes, ...kept], endTime: into.endTime + (next.endTime - next.startTime),
    samples: [...(into.samples ?? []), ...samples], timeDeltas: [...(into.timeDeltas ?? []), ...(next.timeDeltas ?? [])],
  };
}

main().then(() => process.exit(0), (error) => {
  console.error(error);
  process.exit(1);
});
