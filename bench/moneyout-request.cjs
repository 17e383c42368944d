'use strict';
/**
 * autocannon `setupRequest` for the money-out benchmark (bench/moneyout.bench.ts): gives every
 * request a fresh Idempotency-Key (uuid) and a fresh `reference` (replacing __REFERENCE__ in the
 * body template), so each one creates a new payment instead of replaying a stored response.
 * Plain CommonJS because autocannon `require`s it inside its worker thread, where ts-node is absent.
 * Not run on its own: `npm run bench:moneyout`.
 */
const { randomUUID } = require('node:crypto');

// Comma-separated issuer keys to spread the load over several tenants (set by the bench).
const keys = (process.env.BENCH_API_KEYS || '').split(',').filter(Boolean);

module.exports = function setupRequest(request) {
  request.headers['Idempotency-Key'] = randomUUID();
  if (keys.length > 0) request.headers.authorization = `Bearer ${keys[Math.floor(Math.random() * keys.length)]}`;
  request.body = request.body.replace('__REFERENCE__', `ref-${randomUUID()}`);
  return request;
};
