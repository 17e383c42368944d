/**
 * Load runner of the money-out and lifecycle benchmarks (bench/moneyout.bench.ts,
 * bench/lifecycle.bench.ts). A POST carries the money-out body with a fresh Idempotency-Key and
 * reference per request; a GET reads /v1/payments/{id} for ids picked at random from `paymentIds`
 * (bench/moneyout-request.cjs). Each run is autocannon in a child process of its own
 * (bench/load-child.cjs), so the load generator shares neither an event loop nor a process with
 * the servers under test. A run's raw result keeps its latency histogram, so the runs of one
 * target taken in several bursts are summarised as one (`summarize`). Run through
 * `npm run bench:moneyout` or `npm run bench:lifecycle`.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import autocannon from 'autocannon';

export interface LoadOptions {
  readonly url: string;
  /** POST /v1/payments/moneyout (default) or GET /v1/payments/{id}. */
  readonly method?: 'POST' | 'GET';
  /** JSON body with `__REFERENCE__` where the per-request reference goes (POST only). */
  readonly bodyTemplate?: string;
  readonly headers: Record<string, string>;
  /** Issuer keys each request picks one of at random (spreads the load over tenants); empty: `headers` decide. */
  readonly apiKeys?: readonly string[];
  /** Payment ids a GET picks one of at random (required for GET). */
  readonly paymentIds?: readonly string[];
  readonly connections: number;
}

/** autocannon's raw result of one run (histograms encoded), as bench/load-child.cjs prints it. */
export interface RawRun {
  /** Seconds the run lasted. */
  readonly duration: number;
  readonly totalCompletedRequests: number;
  readonly errors: number;
  readonly timeouts: number;
  readonly non2xx: number;
  readonly '1xx': number;
  readonly '2xx': number;
  readonly '3xx': number;
  readonly '4xx': number;
  readonly '5xx': number;
  readonly statusCodeStats: Record<string, { count: number }>;
  readonly [field: string]: unknown;
}

/** What the benchmarks report of one target's measured runs; latencies in milliseconds. */
export interface LoadSummary {
  /** Completed requests ÷ seconds, over every run summarised. */
  readonly reqPerSec: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly responses: number;
  readonly ok2xx: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly timeouts: number;
  readonly statusCodes: Record<string, number>;
  /** Seconds of load, summed over the runs. */
  readonly seconds: number;
}

/** autocannon's own merge of raw results (exported by autocannon 9, missing from its type definitions). */
const aggregateResult = (autocannon as unknown as { aggregateResult(results: readonly RawRun[], opts: { url: string }): autocannon.Result }).aggregateResult;

const LOAD_CHILD = path.join(__dirname, 'load-child.cjs');
const SETUP_REQUEST = path.join(__dirname, 'moneyout-request.cjs');

/** One autocannon run of `durationS` seconds against `opts.url`, in its own process; its raw result. */
export function burst(opts: LoadOptions, durationS: number): Promise<RawRun> {
  const method = opts.method ?? 'POST';
  if (method === 'GET' && (opts.paymentIds ?? []).length === 0) return Promise.reject(new Error('a GET load needs payment ids'));
  const run = {
    url: opts.url,
    connections: opts.connections,
    duration: durationS,
    setupRequest: SETUP_REQUEST,
    requests: [method === 'POST'
      ? { method: 'POST', path: '/v1/payments/moneyout', headers: { 'content-type': 'application/json', ...opts.headers }, body: opts.bodyTemplate }
      : { method: 'GET', path: '/v1/payments/__ID__', headers: opts.headers }],
  };
  const env = { ...process.env, BENCH_API_KEYS: (opts.apiKeys ?? []).join(','), BENCH_PAYMENT_IDS: (opts.paymentIds ?? []).join(',') };
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [LOAD_CHILD, JSON.stringify(run)], { env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`autocannon run failed: ${stderr || error.message}`));
      try {
        resolve(JSON.parse(stdout) as RawRun);
      } catch {
        reject(new Error(`autocannon printed no result: ${stdout.slice(0, 200)}`));
      }
    });
  });
}

/** The runs of one target as one: counts summed, throughput over their summed seconds, latency percentiles of their merged histograms. */
export function summarize(runs: readonly RawRun[]): LoadSummary {
  if (runs.length === 0) throw new Error('nothing to summarise');
  // Its option check wants a url. It adds the later runs' status counts into the first run's own
  // object, so it gets copies without them (this function counts them itself).
  const merged = aggregateResult(runs.map((r) => ({ ...r, statusCodeStats: {} })), { url: 'http://127.0.0.1' });
  const sum = (f: (r: RawRun) => number) => runs.reduce((total, r) => total + f(r), 0);
  const seconds = sum((r) => r.duration);
  const statusCodes: Record<string, number> = {};
  for (const r of runs) {
    for (const [code, s] of Object.entries(r.statusCodeStats ?? {})) statusCodes[code] = (statusCodes[code] ?? 0) + (s?.count ?? 0);
  }
  return {
    reqPerSec: sum((r) => r.totalCompletedRequests) / Math.max(seconds, 1e-9),
    p50Ms: merged.latency.p50,
    p99Ms: merged.latency.p99,
    responses: sum((r) => r['1xx'] + r['2xx'] + r['3xx'] + r['4xx'] + r['5xx']),
    ok2xx: sum((r) => r['2xx']),
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
    statusCodes,
    seconds,
  };
}

/** A warm-up run of `warmupS` seconds (not reported, skipped at 0), then one measured run of `durationS` seconds. */
export async function runLoad(opts: LoadOptions & { readonly durationS: number; readonly warmupS: number }): Promise<LoadSummary> {
  if (opts.warmupS > 0) await burst(opts, opts.warmupS);
  return summarize([await burst(opts, opts.durationS)]);
}

/** True when more than `maxFraction` of the run's responses (socket errors counted) were not 2xx. */
export function tooManyFailures(r: LoadSummary, maxFraction: number): boolean {
  return r.non2xx + r.errors > maxFraction * Math.max(1, r.responses + r.errors);
}

/** One request before the load: a benchmark of error responses would be worthless. */
export async function expectCreated(name: string, baseUrl: string, bodyTemplate: string, headers: Record<string, string>): Promise<void> {
  const response = await fetch(`${baseUrl}/v1/payments/moneyout`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID(), ...headers },
    body: bodyTemplate.replace('__REFERENCE__', `ref-${randomUUID()}`),
  });
  if (response.status !== 201) throw new Error(`${name}: first money-out answered ${response.status}: ${await response.text()}`);
}
