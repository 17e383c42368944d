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
 * Args: `graphql` (payment(id), every field) or `rest` (GET /v1/payments/{id}).
 * Env:  BENCH_DURATION s (10), BENCH_CONNECTIONS (20).
 */
// First: libraries read NODE_ENV when they load.
import './production-env';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { moneyOutBody } from '../test/support/test-service';
import { PAYMENT_FIELDS } from '../test/support/graphql-client';
import { openBenchDatabase } from './bench-database';
import { startServiceServer } from './service-server';

const int = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

async function main(): Promise<void> {
  const target = process.argv[2] === 'rest' ? 'rest' : 'graphql';
  const database = await openBenchDatabase(10, 'payout_bench_graphql_profile');
  const service = await startServiceServer(database.database, database.url, 10, 1, { RATE_LIMIT_PER_MINUTE: '0' });
  const created = await service.container.application.createMoneyOut(service.tenantIds[0]!, randomUUID(), moneyOutBody() as never);
  if (!created.ok) throw new Error(created.message);
  const paymentId = created.value.payment.id;
  const auth = { authorization: `Bearer ${service.apiKey}` };
  const opts = target === 'rest'
    ? { url: `${service.baseUrl}/v1/payments/${paymentId}`, headers: auth }
    : {
      url: `${service.baseUrl}/graphql`, method: 'POST', headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ query: `query P($id: ID!) { payment(id: $id) { ${PAYMENT_FIELDS} } }`, variables: { id: paymentId } }),
    };
  const run = { ...opts, connections: int('BENCH_CONNECTIONS', 20), duration: int('BENCH_DURATION', 10) };
  const script = `require('autocannon')(${JSON.stringify(run)}, (e, r) => { if (e) throw e; `
    + 'console.log(JSON.stringify({ rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx + r.errors })); })';
  const cpu = process.cpuUsage();
  const out = await new Promise<string>((resolve, reject) => {
    execFile(process.execPath, ['-e', script], { cwd: process.cwd() }, (error, stdout, stderr) => (error ? reject(new Error(stderr)) : resolve(stdout)));
  });
  const used = process.cpuUsage(cpu);
  const result = JSON.parse(out) as { rps: number };
  // CPU time of this (the server's) process per request: less sensitive to a shared machine's load than req/s.
  const perRequest = (used.user + used.system) / (result.rps * run.duration);
  console.log(`${target}: ${out.trim()}, server CPU ${perRequest.toFixed(0)} us/request`);
  await service.close();
  await database.close();
}

main().then(() => process.exit(0), (error) => {
  console.error(error);
  process.exit(1);
});
