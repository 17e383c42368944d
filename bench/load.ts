/**
 * Load runner of the money-out and lifecycle benchmarks (bench/moneyout.bench.ts,
 * bench/lifecycle.bench.ts): a warm-up, then the measured autocannon run. A POST carries the
 * money-out body with a fresh Idempotency-Key and reference per request; a GET reads
 * /v1/payments/{id} for ids picked at random from `paymentIds` (bench/moneyout-request.cjs).
 * autocannon runs in its own worker thread so the load generator does not share an event loop
 * with the server under test. Run through `npm run bench:moneyout` or `npm run bench:lifecycle`.
 */
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
  readonly durationS: number;
  readonly warmupS: number;
  /** autocannon worker threads; 0 runs the generator on the main thread. */
  readonly workers: number;
}

/** What the benchmarks report of one measured run; latencies in milliseconds. */
export interface LoadSummary {
  readonly reqPerSec: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly responses: number;
  readonly ok2xx: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly timeouts: number;
  readonly statusCodes: Record<string, number>;
}

const SETUP_REQUEST = path.join(__dirname, 'moneyout-request.cjs');

/**
 * Runs the warm-up and the measured run. The keys and ids reach the request module through the
 * environment, set before each autocannon run and read by the module on every request, so a
 * module loaded earlier (BENCH_WORKERS=0 loads it once, in this thread) still sees this run's.
 */
export async function runLoad(opts: LoadOptions): Promise<LoadSummary> {
  const method = opts.method ?? 'POST';
  const run = (durationS: number) => {
    process.env.BENCH_API_KEYS = (opts.apiKeys ?? []).join(',');
    process.env.BENCH_PAYMENT_IDS = (opts.paymentIds ?? []).join(',');
    return autocannon({
      url: opts.url,
      connections: opts.connections,
      duration: durationS,
      ...(opts.workers > 0 ? { workers: opts.workers } : {}),
      requests: [method === 'POST'
        ? {
          method: 'POST',
          path: '/v1/payments/moneyout',
          headers: { 'content-type': 'application/json', ...opts.headers },
          body: opts.bodyTemplate,
          setupRequest: SETUP_REQUEST,
        }
        : { method: 'GET', path: '/v1/payments/__ID__', headers: opts.headers, setupRequest: SETUP_REQUEST }],
    });
  };
  if (method === 'GET' && (opts.paymentIds ?? []).length === 0) throw new Error('a GET load needs payment ids');
  if (opts.warmupS > 0) await run(opts.warmupS);
  const r = await run(opts.durationS);
  return {
    reqPerSec: r.requests.average,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    responses: r['1xx'] + r['2xx'] + r['3xx'] + r['4xx'] + r['5xx'],
    ok2xx: r['2xx'],
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    statusCodes: Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([code, s]) => [code, s?.count ?? 0])),
  };
}

/** True when more than `maxFraction` of the run's responses (socket errors counted) were not 2xx. */
export function tooManyFailures(r: LoadSummary, maxFraction: number): boolean {
  return r.non2xx + r.errors > maxFraction * Math.max(1, r.responses + r.errors);
}
