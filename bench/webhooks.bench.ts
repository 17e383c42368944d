/**
 * Webhook delivery benchmark (docs/decisions.md § Webhooks): the real delivery worker (claim FOR UPDATE SKIP LOCKED,
 * sign, POST with undici, record) against a local HTTP receiver on 127.0.0.1.
 *  1. Throughput: N payment events committed with their delivery rows (the outbox), then one
 *     worker drains them; prints deliveries/s.
 *  2. Latency: payments moved through real transitions at a steady rate while the worker runs;
 *     prints transition-commit-to-receipt p50/p99 (commit time = the event's timestamp).
 * Run:  npm run bench:webhooks   (DATABASE_URL's server, else the embedded one under .data/bench)
 * Env:  BENCH_EVENTS (5000), BENCH_LATENCY_PAYMENTS (300). Targets: >= 1000 deliveries/s, p50 < 50 ms.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { generateApiKey, storedKey } from '../src/app/api-keys';
import { loadConfig } from '../src/app/config';
import { buildContainer } from '../src/app/container';
import { sha256Hasher } from '../src/adapters/providers/system';
import { newTenant } from '../src/core/auth/tenant';
import { applyMove } from '../src/core/payments/advance-payment';
import { moneyOutBody } from '../test/support/test-service';
import { openBenchDatabase } from './bench-database';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 5000);
const LATENCY_PAYMENTS = Number(process.env.BENCH_LATENCY_PAYMENTS ?? 300);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function main(): Promise<void> {
  const db = await openBenchDatabase(10);
  const received: { at: number; body: string }[] = [];
  const receiver: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ at: Date.now(), body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  const config = loadConfig({
    DATABASE_URL: db.url, LOG_LEVEL: 'silent', WORKER_ENABLED: 'false', WEBHOOK_WORKER_ENABLED: 'false',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_SECRET_KEY: Buffer.alloc(32, 3).toString('base64'),
    WEBHOOK_POLL_INTERVAL_MS: '10', SANDBOX_ACCEPT_DELAY_MS: '0', ...(process.env.WEBHOOK_ENDPOINT_CONCURRENCY ? { WEBHOOK_ENDPOINT_CONCURRENCY: process.env.WEBHOOK_ENDPOINT_CONCURRENCY } : {}),
  });
  const c = buildContainer(config, db.database.orm, pino({ level: 'silent' }));
  const tenant = newTenant({ id: c.ids.next('ten'), name: 'bench', environment: 'sandbox', createdAt: new Date() });
  const apiKey = generateApiKey('sandbox');
  await c.tenants.createTenantWithKeys(tenant, [storedKey(apiKey, 'issuer', tenant.id, 'bench', { ids: c.ids, hasher: sha256Hasher, now: new Date() })]);
  await c.admin.fundSandboxTenant(tenant.id, { currency: 'USDC', amount: '100000000' });
  const registered = await c.application.registerWebhook(tenant.id, { url });
  if (!registered.ok) throw new Error(registered.message);

  // Phase 1: a backlog of committed events, drained by one worker.
  const conn = db.database.orm.em.getConnection();
  await conn.execute(
    `with e as (insert into outbox_events (id, tenant_id, type, entity_id, payload, created_at)
       select gen_random_uuid(), ?, 'payment.succeeded', 'pay_bench_' || g, json_build_object('id', 'pay_bench_' || g, 'status', 'succeeded'), now()
         from generate_series(1, ?) g returning id, entity_id, created_at)
     insert into webhook_deliveries (id, tenant_id, event_id, registration_id, event_type, entity_id, url, status, attempt, next_retry_at, created_at, updated_at)
     select gen_random_uuid(), ?, e.id, ?, 'payment.succeeded', e.entity_id, ?, 'pending', 0, e.created_at, e.created_at, e.created_at from e`,
    [tenant.id, EVENTS, tenant.id, registered.value.webhookId, url],
  );
  const started = Date.now();
  c.webhookWorker.start();
  while (received.length < EVENTS) await new Promise((r) => setTimeout(r, 5));
  const seconds = (Date.now() - started) / 1000;
  await c.webhookWorker.stop();
  const perSecond = EVENTS / seconds;

  // Phase 2: real transitions at a steady rate; latency from the event's commit to its receipt.
  received.length = 0;
  c.webhookWorker.start();
  const ids: string[] = [];
  for (let i = 0; i < LATENCY_PAYMENTS; i++) {
    const r = await c.application.createMoneyOut(tenant.id, randomUUID(), moneyOutBody() as never);
    if (r.ok) ids.push(r.value.payment.id);
  }
  for (const id of ids) {
    await applyMove(c.advanceDeps, id, 'accept', { providerRef: `sbx_${id}` });
    await new Promise((r) => setTimeout(r, 5));
  }
  const deadline = Date.now() + 30_000;
  while (received.length < ids.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  const latencies = received.map((r) => r.at - Date.parse(JSON.parse(r.body).timestamp)).sort((a, b) => a - b);

  console.log('webhook delivery benchmark (one worker, one receiver on 127.0.0.1, PostgreSQL ' + db.version + ', ' + db.where + ')');
  console.log(`throughput: ${EVENTS} deliveries in ${seconds.toFixed(2)} s = ${perSecond.toFixed(0)} deliveries/s (target >= 1000: ${perSecond >= 1000 ? 'PASS' : 'MISS'})`);
  console.log(`latency (transition commit -> receipt, ${latencies.length} events): p50 ${percentile(latencies, 50)} ms, p99 ${percentile(latencies, 99)} ms (target p50 < 50 ms: ${percentile(latencies, 50) < 50 ? 'PASS' : 'MISS'})`);
  await c.stop();
  receiver.close();
  await db.close();
}

main().then(() => process.exit(0), (error) => {
  process.stderr.write(`bench:webhooks crashed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
