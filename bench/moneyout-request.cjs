'use strict';
/**
 * autocannon `setupRequest` for the money-out and lifecycle benchmarks (bench/load.ts). A POST gets
 * a fresh Idempotency-Key (uuid) and a fresh `reference` (replacing __REFERENCE__ in the body
 * template), so each one creates a new payment instead of replaying a stored response; a GET reads
 * a payment id picked at random from BENCH_PAYMENT_IDS (replacing __ID__ in the path). With
 * BENCH_API_KEYS set, each request carries one of those issuer keys, picked at random.
 * The keys and ids come from the environment of the autocannon process (bench/load-child.cjs),
 * which bench/load.ts sets for each run.
 * Plain CommonJS because bench/load-child.cjs runs under plain node, without ts-node.
 * Not run on its own.
 */
const { randomUUID } = require('node:crypto');

const lists = new Map();
/** The comma-separated list in `name`, split once per distinct value. */
function listOf(name) {
  const raw = process.env[name] || '';
  let list = lists.get(raw);
  if (!list) lists.set(raw, (list = raw.split(',').filter(Boolean)));
  return list;
}

const pick = (list) => list[Math.floor(Math.random() * list.length)];

module.exports = function setupRequest(request) {
  const keys = listOf('BENCH_API_KEYS');
  if (keys.length > 0) request.headers.authorization = `Bearer ${pick(keys)}`;
  if (request.method === 'GET') {
    request.path = request.path.replace('__ID__', pick(listOf('BENCH_PAYMENT_IDS')));
    return request;
  }
  request.headers['Idempotency-Key'] = randomUUID();
  request.body = request.body.replace('__REFERENCE__', `ref-${randomUUID()}`);
  return request;
};
