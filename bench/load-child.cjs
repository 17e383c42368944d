'use strict';
/**
 * One autocannon run of the money-out and lifecycle benchmarks (bench/load.ts), in a process of its
 * own so the load generator shares neither an event loop nor a process with the servers under
 * test. argv[2] is the run as JSON: autocannon's options (url, connections, duration in seconds,
 * one request template) plus `setupRequest`, the path of the request module
 * (bench/moneyout-request.cjs), which reads its keys and ids from this process's environment.
 * Prints autocannon's raw result as one JSON line (skipAggregateResult: its latency histogram
 * still encoded), so bench/load.ts can merge the histograms of several runs into one.
 * Plain CommonJS: it runs under plain node, without ts-node. Not run on its own.
 */
const autocannon = require('autocannon');

const run = JSON.parse(process.argv[2]);
const setupRequest = require(run.setupRequest);
autocannon({
  ...run,
  setupRequest: undefined,
  requests: run.requests.map((r) => ({ ...r, setupRequest })),
  skipAggregateResult: true,
}, (error, result) => {
  if (error) {
    process.stderr.write(`${error.stack || error}\n`);
    process.exit(1);
  }
  process.stdout.write(`${JSON.stringify(result)}\n`);
});
