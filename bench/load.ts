/**
 * Load runner of the money-out benchmark (bench/moneyout.bench.ts): a warm-up, then the measured
 * autocannon run, POSTing the money-out body with a fresh Idempotency-Key and reference per request
 * (bench/moneyout-request.cjs). autocannon runs in its own worker thread so the load generator does
 * not share an event loop with the server under test. Run through `npm run bench:moneyout`.
 */
import path from 'node:path';
import autocannon from 'autocannon';

export interface LoadOptions {
  readonly url: string;
  /** JSON body with `__REFERENCE__` where the per-request reference goes. */
  readonly bodyTemplate: string;
  readonly headers: Record<string, string>;
  readonly connections: number;
  readonly durationS: number;
  readonly warmupS: number;
  /** autocannon worker threads; 0 runs the generator on the main thread. */
  readonly workers: number;
}

/** What the benchmark reports of one measured run. */
export interface LoadSummary {
  readonly reqPerSec: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly responses: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly timeouts: number;
  readonly statusCodes: Record<string, number>;
}

const SETUP_REQUEST = path.join(__dirname, 'moneyout-request.cjs');

export async function runLoad(opts: LoadOptions): Promise<LoadSummary> {
  const run = (durationS: number) => autocannon({
    url: opts.url,
    connections: opts.connections,
    duration: durationS,
    ...(opts.workers > 0 ? { workers: opts.workers } : {}),
    requests: [{
      method: 'POST',
      path: '/v1/payments/moneyout',
      headers: { 'content-type': 'application/json', ...opts.headers },
      body: opts.bodyTemplate,
      setupRequest: SETUP_REQUEST,
    }],
  });
  if (opts.warmupS > 0) await run(opts.warmupS);
  const r = await run(opts.durationS);
  return {
    reqPerSec: r.requests.average,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    responses: r['1xx'] + r['2xx'] + r['3xx'] + r['4xx'] + r['5xx'],
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    statusCodes: Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([code, s]) => [code, s?.count ?? 0])),
  };
}
