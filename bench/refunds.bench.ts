/**
 * Onchain refunds benchmark (docs/decisions.md § Refunds, docs/operations.md § Refunds): the real
 * service's refunds worker (container, the chain's sender, PostgreSQL) sending from one hot wallet
 * per chain, on each local chain in turn (BENCH_CHAINS, default `BSC,SOLANA`): BSC on anvil (a
 * block per transaction, one more every BENCH_BLOCK_MS, final two blocks behind the head, as BSC
 * fast finality) and Solana on litesvm behind its JSON-RPC server (a slot per transaction, one more
 * every BENCH_BLOCK_MS, finalized BENCH_SOLANA_DEPTH (4) slots behind). Per chain, BENCH_REFUNDS
 * (500) live refunds of BENCH_TENANTS (10) tenants are queued at once (one transaction: each
 * tenant's ledger moved to refund_pending, the refunds written pending to fresh addresses), then
 * the worker starts and the clock runs until every refund is confirmed.
 * Checks: every refund confirmed with its ledger move, and onchain exactly one transfer per
 * recipient of exactly its amount.
 * Prints per chain: total time, time per refund, queue-to-confirmed p50 / p99 / max.
 * A wallet has one refund in flight at a time, each final before the next is signed
 * (docs/decisions.md § Refunds: never twice), so the total is about BENCH_REFUNDS × (finality + a pass).
 * Run:  npm run bench:refunds   (DATABASE_URL's server, else the embedded one under .data/bench)
 */
import os from 'node:os';
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { loadConfig } from '../src/app/config';
import { buildContainer } from '../src/app/container';
import { createLedgerAccounts, LedgerTxStore } from '../src/adapters/persistence/ledger.repository';
import { OnchainRefundTxStore } from '../src/adapters/persistence/onchain-refund.repository';
import { openBenchDatabase } from './bench-database';
import { benchBsc, benchSolana, type BenchChain } from './refund-bench-chains';

const REFUNDS = Number(process.env.BENCH_REFUNDS ?? 500);
const TENANTS = Number(process.env.BENCH_TENANTS ?? 10);
const BLOCK_MS = Number(process.env.BENCH_BLOCK_MS ?? 100);
const INTERVAL_MS = process.env.BENCH_INTERVAL_MS ?? '50';
const CHAINS = (process.env.BENCH_CHAINS ?? 'BSC,SOLANA').split(',').map((c) => c.trim().toUpperCase());
const SOLANA_DEPTH = Number(process.env.BENCH_SOLANA_DEPTH ?? 4);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(): Promise<void> {
  let failed = false;
  for (const name of CHAINS) {
    if (name !== 'BSC' && name !== 'SOLANA') throw new Error(`BENCH_CHAINS: ${name} is neither BSC nor SOLANA`);
    const db = await openBenchDatabase(10, `payout_bench_refunds_${name.toLowerCase()}`);
    const chain = name === 'BSC' ? await benchBsc() : await benchSolana(SOLANA_DEPTH);
    try {
      failed = !(await runOn(chain, db)) || failed;
    } finally {
      await chain.stop();
      await db.close();
    }
  }
  if (failed) process.exitCode = 1;
}

/** Queues the refunds on `chain`, runs its worker until all are confirmed, checks and prints; false when a check failed. */
async function runOn(chain: BenchChain, db: Awaited<ReturnType<typeof openBenchDatabase>>): Promise<boolean> {
  const config = loadConfig({
    DATABASE_URL: db.url, LOG_LEVEL: 'silent', WORKER_ENABLED: 'false', CHAIN_WATCHER_ENABLED: 'false', WEBHOOK_WORKER_ENABLED: 'false',
    WEBHOOK_SECRET_KEY: Buffer.alloc(32, 3).toString('base64'), REFUND_INTERVAL_MS: INTERVAL_MS, REFUND_LEASE_MS: '30000', ...chain.env,
  });
  const c = buildContainer(config, db.database.orm, pino({ level: 'silent' }));
  const worker = c.refundWorkers[0];
  if (!worker) throw new Error(`no refunds worker: the ${chain.chain} hot wallet is not configured`);

  // Queued at once: one transaction.
  const refunds: { id: string; to: string; units: bigint }[] = [];
  const recipients = await Promise.all(Array.from({ length: REFUNDS }, () => chain.recipient()));
  const queuedAt = new Date();
  await db.database.orm.em.fork().transactional(async (em) => {
    const ledger = new LedgerTxStore(em, c.ids);
    const store = new OnchainRefundTxStore(em);
    const tenants = Array.from({ length: TENANTS }, () => `ten_${randomUUID()}`);
    for (const tenantId of tenants) await createLedgerAccounts(em, tenantId, c.ids, queuedAt);
    for (let i = 0; i < REFUNDS; i++) {
      const tenantId = tenants[i % TENANTS]!;
      const micros = 1_000_000 + i * 1_013;
      const amount = `${Math.floor(micros / 1e6)}.${String(micros % 1e6).padStart(6, '0')}`;
      const paymentId = c.ids.next('pay');
      const move = { tenantId, currency: chain.currency, amount, at: queuedAt };
      if (await ledger.post({ ...move, from: 'funding', to: 'in_transit', kind: 'sandbox_funding' }) !== 'posted') throw new Error('ledger refused');
      if (await ledger.post({ ...move, from: 'in_transit', to: 'refund_pending', kind: 'return', paymentId }) !== 'posted') throw new Error('ledger refused');
      const to = recipients[i]!;
      const id = c.ids.next('rfd');
      await store.create({
        id, paymentId, tenantId, amount, currency: chain.currency, blockchain: chain.chain, refundAddress: to, status: 'pending', txHash: null,
        createdAt: queuedAt, sentAt: null, failureReason: null,
      });
      refunds.push({ id, to, units: BigInt(micros) * chain.unitsPerMicro });
    }
  });

  const conn = db.database.orm.em.fork().getConnection();
  const confirmed = async () => Number(((await conn.execute("select count(*)::int as n from onchain_refunds where status = 'confirmed'")) as Array<{ n: number }>)[0]?.n ?? 0);
  chain.tick(BLOCK_MS);
  const began = Date.now();
  worker.start();
  let last = -1;
  for (let done = 0; done < REFUNDS; done = await confirmed()) {
    if (Math.floor(done / 100) !== Math.floor(last / 100)) process.stdout.write(`${chain.chain}: confirmed ${done}/${REFUNDS} after ${((Date.now() - began) / 1000).toFixed(1)} s\n`);
    last = done;
    await sleep(250);
  }
  const totalS = (Date.now() - began) / 1000;
  await worker.stop();

  // Checks: every refund confirmed with its ledger move; one transfer per recipient, of its amount.
  const rows = (await conn.execute(
    `select r.id, r.status, r.sent_at, (select count(*)::int from ledger_transactions l where l.payment_id = r.payment_id and l.kind = 'refund_sent') as moves
       from onchain_refunds r`)) as Array<{ id: string; status: string; sent_at: Date; moves: number }>;
  const byId = new Map(rows.map((r) => [r.id, r]));
  const perRecipient = await chain.sent();
  const transfers = [...perRecipient.values()].reduce((n, list) => n + list.length, 0);
  const problems: string[] = [];
  for (const r of refunds) {
    const row = byId.get(r.id);
    if (row?.status !== 'confirmed' || row.moves !== 1) problems.push(`${r.id}: ${row?.status} with ${row?.moves} ledger moves`);
    const sent = perRecipient.get(chain.chain === 'BSC' ? r.to.toLowerCase() : r.to) ?? [];
    if (sent.length !== 1 || sent[0] !== r.units) problems.push(`${r.to}: ${sent.length} transfers (${sent.join(', ')})`);
  }
  const latencies = refunds.map((r) => new Date(byId.get(r.id)!.sent_at).getTime() - queuedAt.getTime()).sort((a, b) => a - b);
  const lines = [
    '',
    `${chain.chain} — machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}, Node ${process.version}, PostgreSQL ${db.version} ${db.where}; one hot wallet; ${chain.pace}, a tick every ${BLOCK_MS} ms; REFUND_INTERVAL_MS ${INTERVAL_MS} (service default 2000)`,
    `${chain.chain}: ${REFUNDS} refunds queued at once (${TENANTS} tenants): ${REFUNDS - problems.filter((p) => p.startsWith('rfd_')).length} confirmed with their ledger move; ${transfers} transfers onchain to ${perRecipient.size} recipients; ${problems.length === 0 ? 'none doubled, none missing' : `PROBLEMS: ${problems.length}`}`,
    `${chain.chain}: total ${totalS.toFixed(1)} s, ${(totalS * 1000 / REFUNDS).toFixed(0)} ms per refund (${(REFUNDS / totalS).toFixed(2)} refunds/s); queue → confirmed p50 ${(percentile(latencies, 50) / 1000).toFixed(1)} s, p99 ${(percentile(latencies, 99) / 1000).toFixed(1)} s, max ${((latencies.at(-1) ?? 0) / 1000).toFixed(1)} s`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  for (const p of problems.slice(0, 10)) process.stdout.write(`  ${p}\n`);
  await c.stop();
  return problems.length === 0;
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
