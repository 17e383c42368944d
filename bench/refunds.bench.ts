/**
 * Onchain refunds benchmark (docs/decisions.md § Refunds, docs/operations.md § Refunds): the real
 * service's refunds worker (container, BSC sender, PostgreSQL) sending from one BSC hot wallet on a
 * local anvil. BENCH_REFUNDS (500) live refunds of BENCH_TENANTS (10) tenants are queued at once
 * (one transaction: each tenant's ledger moved to refund_pending, the refunds written pending to
 * fresh addresses), then the worker starts and the clock runs until every refund is confirmed.
 * anvil mines a block per transaction and the bench one more every BENCH_BLOCK_MS (100 ms); a block
 * is final two blocks behind the head (anvil's `finalized` tag, as BSC fast finality).
 * Checks: every refund confirmed with its ledger move, and onchain exactly one transfer per
 * recipient of exactly its amount (Transfer logs of the hot wallet counted per recipient).
 * Prints: total time, time per refund, queue-to-confirmed p50 / p99 / max.
 * A wallet has one refund in flight at a time, each final before the next is signed
 * (docs/decisions.md § Refunds: never twice), so the total is about BENCH_REFUNDS × (finality + a pass).
 * Run:  npm run bench:refunds   (DATABASE_URL's server, else the embedded one under .data/bench)
 */
import os from 'node:os';
import { randomBytes, randomUUID } from 'node:crypto';
import pino from 'pino';
import { parseAbiItem, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { loadConfig } from '../src/app/config';
import { buildContainer } from '../src/app/container';
import { createLedgerAccounts, LedgerTxStore } from '../src/adapters/persistence/ledger.repository';
import { OnchainRefundTxStore } from '../src/adapters/persistence/onchain-refund.repository';
import { LocalBsc } from '../test/support/chains/local-bsc';
import { randomXpub } from '../test/support/chains/bsc-service-fixture';
import { openBenchDatabase } from './bench-database';

const REFUNDS = Number(process.env.BENCH_REFUNDS ?? 500);
const TENANTS = Number(process.env.BENCH_TENANTS ?? 10);
const BLOCK_MS = Number(process.env.BENCH_BLOCK_MS ?? 100);
const INTERVAL_MS = process.env.BENCH_INTERVAL_MS ?? '50';
const ONE = 10n ** 18n;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(): Promise<void> {
  const db = await openBenchDatabase(10, 'payout_bench_refunds');
  const bsc = await LocalBsc.start();
  let mining: NodeJS.Timeout | undefined;
  try {
    const usdt = await bsc.deployToken('Tether USD', 'USDT');
    const usdc = await bsc.deployToken('USD Coin', 'USDC');
    const key = generatePrivateKey();
    const wallet = privateKeyToAccount(key).address;
    await bsc.anvil.rpc('anvil_setBalance', [wallet, `0x${(100n * ONE).toString(16)}`]);
    await bsc.mint(usdt, wallet, 10_000_000n * ONE);
    const config = loadConfig({
      DATABASE_URL: db.url, LOG_LEVEL: 'silent', WORKER_ENABLED: 'false', CHAIN_WATCHER_ENABLED: 'false', WEBHOOK_WORKER_ENABLED: 'false',
      WEBHOOK_SECRET_KEY: Buffer.alloc(32, 3).toString('base64'),
      BSC_RPC_URLS: bsc.url, BSC_DEPOSIT_XPUB: randomXpub(), BSC_USDT_CONTRACT: usdt, BSC_USDC_CONTRACT: usdc,
      BSC_HOT_WALLET_KEY: key, REFUND_INTERVAL_MS: INTERVAL_MS, REFUND_LEASE_MS: '30000',
    });
    const c = buildContainer(config, db.database.orm, pino({ level: 'silent' }));
    const worker = c.refundWorkers[0];
    if (!worker) throw new Error('no refunds worker: the BSC hot wallet is not configured');

    // Queued at once: one transaction.
    const refunds: { id: string; to: Address; amount: string; units: bigint }[] = [];
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
        const move = { tenantId, currency: 'USDT' as const, amount, at: queuedAt };
        if (await ledger.post({ ...move, from: 'funding', to: 'in_transit', kind: 'sandbox_funding' }) !== 'posted') throw new Error('ledger refused');
        if (await ledger.post({ ...move, from: 'in_transit', to: 'refund_pending', kind: 'return', paymentId }) !== 'posted') throw new Error('ledger refused');
        const to = `0x${randomBytes(20).toString('hex')}` as Address;
        const id = c.ids.next('rfd');
        await store.create({
          id, paymentId, tenantId, amount, currency: 'USDT', blockchain: 'BSC', refundAddress: to, status: 'pending', txHash: null,
          createdAt: queuedAt, sentAt: null, failureReason: null,
        });
        refunds.push({ id, to, amount, units: BigInt(micros) * 10n ** 12n });
      }
    });
    const startBlock = (await bsc.heights()).head;

    const conn = db.database.orm.em.fork().getConnection();
    const confirmed = async () => Number(((await conn.execute("select count(*)::int as n from onchain_refunds where status = 'confirmed'")) as Array<{ n: number }>)[0]?.n ?? 0);
    mining = setInterval(() => void bsc.mine().catch(() => undefined), BLOCK_MS);
    const began = Date.now();
    worker.start();
    let last = -1;
    for (let done = 0; done < REFUNDS; done = await confirmed()) {
      if (Math.floor(done / 100) !== Math.floor(last / 100)) process.stdout.write(`confirmed ${done}/${REFUNDS} after ${((Date.now() - began) / 1000).toFixed(1)} s\n`);
      last = done;
      await sleep(250);
    }
    const totalS = (Date.now() - began) / 1000;
    await worker.stop();
    clearInterval(mining);
    mining = undefined;

    // Checks: every refund confirmed with its ledger move; one transfer per recipient, of its amount.
    const rows = (await conn.execute(
      `select r.id, r.status, r.sent_at, (select count(*)::int from ledger_transactions l where l.payment_id = r.payment_id and l.kind = 'refund_sent') as moves
         from onchain_refunds r`)) as Array<{ id: string; status: string; sent_at: Date; moves: number }>;
    const byId = new Map(rows.map((r) => [r.id, r]));
    const logs = await bsc.publicClient.getLogs({
      address: usdt, event: parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)'), args: { from: wallet }, fromBlock: startBlock,
    });
    const perRecipient = new Map<string, bigint[]>();
    for (const log of logs) perRecipient.set(log.args.to!.toLowerCase(), [...(perRecipient.get(log.args.to!.toLowerCase()) ?? []), log.args.value!]);
    const problems: string[] = [];
    for (const r of refunds) {
      const row = byId.get(r.id);
      if (row?.status !== 'confirmed' || row.moves !== 1) problems.push(`${r.id}: ${row?.status} with ${row?.moves} ledger moves`);
      const sent = perRecipient.get(r.to.toLowerCase()) ?? [];
      if (sent.length !== 1 || sent[0] !== r.units) problems.push(`${r.to}: ${sent.length} transfers (${sent.join(', ')})`);
    }
    const latencies = refunds.map((r) => new Date(byId.get(r.id)!.sent_at).getTime() - queuedAt.getTime()).sort((a, b) => a - b);
    const lines = [
      '',
      `machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}, Node ${process.version}, PostgreSQL ${db.version} ${db.where}; one BSC hot wallet on anvil, a block every ${BLOCK_MS} ms besides one per transaction, final 2 blocks behind the head; REFUND_INTERVAL_MS ${INTERVAL_MS} (service default 2000)`,
      `${REFUNDS} refunds queued at once (${TENANTS} tenants): ${REFUNDS - problems.filter((p) => p.startsWith('rfd_')).length} confirmed with their ledger move; ${logs.length} transfers onchain to ${perRecipient.size} recipients; ${problems.length === 0 ? 'none doubled, none missing' : `PROBLEMS: ${problems.length}`}`,
      `total ${totalS.toFixed(1)} s, ${(totalS * 1000 / REFUNDS).toFixed(0)} ms per refund (${(REFUNDS / totalS).toFixed(2)} refunds/s); queue → confirmed p50 ${(percentile(latencies, 50) / 1000).toFixed(1)} s, p99 ${(percentile(latencies, 99) / 1000).toFixed(1)} s, max ${((latencies.at(-1) ?? 0) / 1000).toFixed(1)} s`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    for (const p of problems.slice(0, 10)) process.stdout.write(`  ${p}\n`);
    await c.stop();
    if (problems.length > 0) process.exitCode = 1;
  } finally {
    if (mining) clearInterval(mining);
    await bsc.stop();
    await db.close();
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
