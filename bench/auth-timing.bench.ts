/**
 * Authentication timing (`npm run bench:auth`): does the time of a refused key tell whether its
 * prefix exists? Starts the service as main does (production mode, workers off, no failure
 * throttle so every guess is answered), creates one issuer key, then times GET /v1/balances with,
 * interleaved in a random order: the valid key, its prefix with a wrong secret, and a fresh unknown prefix each time.
 * Prints median and p90 per kind in ms; the two refusals should match (docs/decisions.md §
 * Authentication, tenants and keys).
 * Env: BENCH_ROUNDS (2000); DATABASE_URL as bench:moneyout (else the embedded server).
 */
import type { AddressInfo } from 'node:net';
import { randomBytes, randomUUID } from 'node:crypto';
import { sha256Hasher } from '../src/adapters/providers/system';
import { createHttpServer } from '../src/adapters/http/http-server';
import { generateApiKey, storedKey } from '../src/app/api-keys';
import { httpTimeouts, loadConfig } from '../src/app/config';
import { buildContainer } from '../src/app/container';
import { createLogger } from '../src/app/logger';
import { newTenant } from '../src/core/auth/tenant';
import { openBenchDatabase } from './bench-database';

async function main(): Promise<void> {
  const rounds = Number(process.env.BENCH_ROUNDS ?? 2000);
  const bench = await openBenchDatabase(10);
  const config = loadConfig({
    NODE_ENV: 'production', LOG_LEVEL: 'silent', DATABASE_URL: bench.url, PORT: '0', HOST: '127.0.0.1', DB_POOL_MAX: '10',
    WORKER_ENABLED: 'false', WEBHOOK_WORKER_ENABLED: 'false', RATE_LIMIT_PER_MINUTE: '0', AUTH_FAILURES_PER_MINUTE: '0',
    WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'),
  });
  const logger = createLogger('silent');
  const container = buildContainer(config, bench.database.orm, logger);
  await container.startWorkers();
  const server = createHttpServer(container.http, httpTimeouts(config), logger);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const tenant = newTenant({ id: container.ids.next('ten'), name: `Bench ${randomUUID()}`, environment: 'sandbox', createdAt: new Date() });
  const apiKey = generateApiKey('sandbox');
  await container.tenants.createTenantWithKeys(tenant, [storedKey(apiKey, 'issuer', tenant.id, 'bench', { ids: container.ids, hasher: sha256Hasher, now: new Date() })]);

  const prefix = apiKey.slice(0, 'sk_sandbox_'.length + 12);
  const kinds = {
    'valid key': () => apiKey,
    'known prefix, wrong secret': () => `${prefix}${randomBytes(14).toString('hex')}`,
    'unknown prefix': () => `sk_sandbox_${randomBytes(20).toString('hex')}`,
  };
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(kinds).map((k) => [k, []]));
  const time = async (key: string) => {
    const started = process.hrtime.bigint();
    const res = await fetch(`${baseUrl}/v1/balances`, { headers: { authorization: `Bearer ${key}` } });
    await res.arrayBuffer();
    return Number(process.hrtime.bigint() - started) / 1e6;
  };
  for (let warm = 0; warm < 200; warm++) for (const make of Object.values(kinds)) await time(make());
  // A random order each round, so no kind always follows the heavier valid request.
  for (let round = 0; round < rounds; round++) {
    for (const [kind, make] of Object.entries(kinds).sort(() => Math.random() - 0.5)) times[kind]!.push(await time(make()));
  }
  const at = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(3);
  process.stdout.write(`auth timing, ${rounds} rounds, GET /v1/balances over HTTP keep-alive (ms)\n`);
  for (const [kind, list] of Object.entries(times)) {
    const sorted = [...list].sort((a, b) => a - b);
    process.stdout.write(`  ${kind.padEnd(28)} median ${at(sorted, 0.5)}  p90 ${at(sorted, 0.9)}\n`);
  }
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
  await container.stop();
  await bench.close();
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
