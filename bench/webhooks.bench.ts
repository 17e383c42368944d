/**
 * Webhook delivery benchmark (docs/decisions.md § Webhooks): the real delivery worker (claim FOR UPDATE SKIP LOCKED,
 * sign, POST with undici, record) against a local HTTP receiver on 127.0.0.1.
 *  1. Throughput: N payment events committed with their delivery rows (the outbox), then one
 *     worker drains them; prints deliveries/s.
 *  2. Latency: payments moved through real transitions at a steady rate while the worker runs;
 *     prints transition-commit-to-receipt p50/p99 (commit time = the event's timestamp).
 *  3. Isolation: N events for the same endpoint and N for a second tenant's endpoint that accepts
 *     the connection and never answers, committed together; prints the healthy endpoint's
 *     deliveries/s and how many sends the hanging one holds open.
 * Run:  npm run bench:webhooks   (DATABASE_URL's server, else the embedded one under .data/bench)
 * Env:  BENCH_EVENTS (5000), BENCH_LATENCY_PAYMENTS (300); WEBHOOK_ENDPOINT_CONCURRENCY passes through.
 * Targets: >= 2000 deliveries/s with the defaults, alone and beside the hanging endpoint; p50 < 50 ms.
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
  const db = await openBenchDatabase(10, 'payout_bench_webhooks');
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
  // Reads each request and never answers: the worker's sends to it run into their timeout.
  let hangingOpen = 0;
  let hangingMax = 0;
  const hanging: Server = createServer((req) => {
    hangingMax = Math.max(hangingMax, ++hangingOpen);
    req.socket.once('close', () => hangingOpen--);
    req.resume();
  });
  await new Promise<void>((r) => hanging.listen(0, '127.0.0.1', r));
  const hangingUrl = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/hooks`;
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

  // Statements per delivery: the worker's queue is wrapped to count its calls, rows and time.
  const stats = { claim: { calls: 0, rows: 0, ms: 0 }, record: { calls: 0, rows: 0, ms: 0 } };
  const queue = c.deliveryDeps.queue;
  const claimDue = queue.claimDue.bind(queue);
  const recordAll = queue.recordAll.bind(queue);
  Object.assign(queue, {
    claimDue: async (request: Parameters<typeof claimDue>[0]) => {
      const t = performance.now();
      const jobs = await claimDue(request);
      stats.claim.calls++; stats.claim.rows += jobs.length; stats.claim.ms += performance.now() - t;
      return jobs;
    },
    recordAll: async (records: Parameters<typeof recordAll>[0]) => {
      const t = performance.now();
      await recordAll(records);
      stats.record.calls++; stats.record.rows += records.length; stats.record.ms += performance.now() - t;
    },
  });
  const statements = () => {
    const line = (name: string, s: { calls: number; rows: number; ms: number }) =>
      `${name} ${s.calls} statements, ${(s.rows / Math.max(1, s.calls)).toFixed(1)} rows and ${(s.ms / Math.max(1, s.calls)).toFixed(1)} ms each`;
    const text = `${line('claim', stats.claim)}; ${line('record', stats.record)}`;
    stats.claim = { calls: 0, rows: 0, ms: 0 };
    stats.record = { calls: 0, rows: 0, ms: 0 };
    return text;
  };

  // Phase 1: a backlog of committed events, drained by one worker.
  const conn = db.database.orm.em.getConnection();
  /** Commits `count` events of tenant `tenantId` with one pending delivery each to `webhookId` at `target`. */
  const backlog = (tenantId: string, webhookId: string, target: string, prefix: string) => conn.execute(
    `with e as (insert into outbox_events (id, tenant_id, type, entity_id, payload, created_at)
       select gen_random_uuid(), ?, 'payment.succeeded', ? || g, json_build_object('id', ? || g, 'status', 'succeeded'), now()
         from generate_series(1, ?) g returning id, entity_id, created_at)
     insert into webhook_deliveries (id, tenant_id, event_id, registration_id, event_type, entity_id, url, status, attempt, next_retry_at, created_at, updated_at)
     select gen_random_uuid(), ?, e.id, ?, 'payment.succeeded', e.entity_id, ?, 'pending', 0, e.created_at, e.created_at, e.created_at from e`,
    [tenantId, prefix, prefix, EVENTS, tenantId, webhookId, target],
  );
  /** Starts the worker, waits until `received` holds `count` requests, stops it; deliveries per second. */
  const drain = async (count: number) => {
    const started = Date.now();
    const cpu = process.cpuUsage();
    c.webhookWorker.start();
    while (received.length < count) await new Promise((r) => setTimeout(r, 5));
    const seconds = (Date.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    // CPU of this process (worker, receiver and pg client together) per delivery, in ms.
    return { seconds, perSecond: count / seconds, cpuMs: (used.user + used.system) / 1000 / count, cpuShare: (used.user + used.system) / 1e6 / seconds };
  };
  await backlog(tenant.id, registered.value.webhookId, url, 'pay_bench_');
  const alone = await drain(EVENTS);
  await c.webhookWorker.stop();
  const aloneStatements = statements();

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
  await c.webhookWorker.stop();

  // Phase 3: the same endpoint beside another tenant's endpoint that never answers.
  const other = newTenant({ id: c.ids.next('ten'), name: 'bench-hanging', environment: 'sandbox', createdAt: new Date() });
  await c.tenants.createTenantWithKeys(other, []);
  const stuck = await c.application.registerWebhook(other.id, { url: hangingUrl });
  if (!stuck.ok) throw new Error(stuck.message);
  received.length = 0;
  await Promise.all([
    backlog(other.id, stuck.value.webhookId, hangingUrl, 'pay_hang_'),
    backlog(tenant.id, registered.value.webhookId, url, 'pay_beside_'),
  ]);
  statements();
  const beside = await drain(EVENTS);
  const besideStatements = statements();
  const hangingHeld = hangingMax;
  hanging.closeAllConnections();
  await c.webhookWorker.stop();

  console.log('webhook delivery benchmark (one worker, one receiver on 127.0.0.1, PostgreSQL ' + db.version + ', ' + db.where + ')');
  const verdict = (perSecond: number) => `target >= 2000: ${perSecond >= 2000 ? 'PASS' : 'MISS'}, ratio ${(perSecond / 2000).toFixed(2)}`;
  console.log(`settings: WEBHOOK_ENDPOINT_CONCURRENCY ${config.WEBHOOK_ENDPOINT_CONCURRENCY}, WEBHOOK_BATCH_SIZE ${config.WEBHOOK_BATCH_SIZE}, WEBHOOK_MAX_IN_FLIGHT ${config.WEBHOOK_MAX_IN_FLIGHT}`);
  console.log(`throughput, one endpoint: ${EVENTS} deliveries in ${alone.seconds.toFixed(2)} s = ${alone.perSecond.toFixed(0)} deliveries/s (${verdict(alone.perSecond)})`);
  console.log(`throughput beside a hanging endpoint: ${EVENTS} deliveries in ${beside.seconds.toFixed(2)} s = ${beside.perSecond.toFixed(0)} deliveries/s (${verdict(beside.perSecond)}); the hanging endpoint held ${hangingHeld} requests open at most at once (cap ${config.WEBHOOK_ENDPOINT_CONCURRENCY})`);
  console.log(`  one endpoint: ${aloneStatements}; this process ${alone.cpuMs.toFixed(2)} ms CPU per delivery, ${(alone.cpuShare * 100).toFixed(0)} % of a core`);
  console.log(`  beside the hanging one: ${besideStatements}; this process ${beside.cpuMs.toFixed(2)} ms CPU per delivery, ${(beside.cpuShare * 100).toFixed(0)} % of a core`);
  console.log(`latency (transition commit -> receipt, ${latencies.length} events): p50 ${percentile(latencies, 50)} ms, p99 ${percentile(latencies, 99)} ms (target p50 < 50 ms: ${percentile(latencies, 50) < 50 ? 'PASS' : 'MISS'})`);
  await c.stop();
  receiver.close();
  hanging.close();
  await db.close();
}

main().then(() => process.exit(0), (error) => {
  process.stderr.write(`bench:webhooks crashed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
