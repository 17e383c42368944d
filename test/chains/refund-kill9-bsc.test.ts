/**
 * Never twice across a kill -9 (docs/decisions.md § Refunds: never twice), with the real service as
 * a child process sending from a BSC hot wallet on anvil through a JSON-RPC proxy. The proxy holds
 * the service's first `eth_sendRawTransaction` unanswered and the test SIGKILLs the service at that
 * moment: `before` the node saw it (the attempt is committed as signed, nothing is on the chain:
 * killed between sign and broadcast) or `after` the node took and mined it (killed between
 * broadcast and record). A restarted service finishes the refund, and exactly one transfer reaches
 * the refundAddress, the refund and the ledger ending confirmed.
 * No test-only hook in the service: the moment is chosen from outside, as a provider holding its
 * answer is in test/e2e/provider-kill9.test.ts.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { MikroORM } from '@mikro-orm/postgresql';
import { parseAbiItem, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { ulid } from 'ulid';
import { ormOptions } from '../../src/adapters/persistence/mikro-orm.config';
import { createLedgerAccounts, LedgerTxStore } from '../../src/adapters/persistence/ledger.repository';
import { OnchainRefundTxStore } from '../../src/adapters/persistence/onchain-refund.repository';
import { ulidGenerator } from '../../src/adapters/providers/system';
import type { OnchainRefund } from '../../src/core/refunds/onchain-refund';
import { jsonRpc } from '../support/chains/anvil';
import { ONE, startBscServiceFixture, type BscServiceFixture } from '../support/chains/bsc-service-fixture';
import { startRpcProxy, type RpcProxy } from '../support/chains/rpc-proxy';
import { killChildren, spawnChild, type Child } from '../support/child-process';
import { eventually } from '../support/test-service';

jest.setTimeout(120_000);

const ids = ulidGenerator();
let f: BscServiceFixture;
let proxy: RpcProxy;
let orm: MikroORM;
let mining: NodeJS.Timeout | undefined;
const ours: string[] = [];
const key = generatePrivateKey();
const hotWallet = privateKeyToAccount(key).address;
let age = 0;

beforeAll(async () => {
  f = await startBscServiceFixture();
  proxy = await startRpcProxy(f.bsc.url);
  orm = await MikroORM.init(ormOptions(process.env.TEST_DATABASE_URL!, 2));
  await jsonRpc(f.bsc.url, 'anvil_setBalance', [hotWallet, `0x${ONE.toString(16)}`]);
  await f.bsc.mint(f.usdt, hotWallet, 1_000n * ONE);
}, 90_000);
afterEach(async () => {
  if (mining) clearInterval(mining);
  mining = undefined;
  proxy.behaviour = {};
  await killChildren();
});
afterAll(async () => {
  // Out of every later sender's way, whatever happened here.
  if (ours.length > 0) await orm?.em.fork().execute(`update onchain_refunds set status = 'failed' where id in (${ours.map(() => '?').join(',')}) and status = 'pending'`, ours);
  await orm?.close(true);
  await proxy?.close();
  await f?.stop();
});

/**
 * The service (src/app/main.ts through ts-node) with this file's hot wallet, every RPC call through
 * the proxy, JSON logs; returned at once (its refunds worker may send before it listens). The lease
 * of a killed one runs out in 2 s.
 */
function service(): Child {
  return spawnChild(process.execPath, ['-r', 'ts-node/register/transpile-only', 'src/app/main.ts'], {
    ...f.env([proxy.url], { BSC_RPC_TIMEOUT_MS: '30000' }), BSC_HOT_WALLET_KEY: key, REFUND_INTERVAL_MS: '100', REFUND_LEASE_MS: '2000',
    DATABASE_URL: process.env.TEST_DATABASE_URL!, NODE_ENV: 'test', PORT: '0', HOST: '127.0.0.1', LOG_FORMAT: 'json', LOG_LEVEL: 'info',
    WEBHOOK_SECRET_KEY: Buffer.alloc(32, 7).toString('base64'), WEBHOOK_WORKER_ENABLED: 'false',
  });
}

/** A live payment's refund owed from `refund_pending`, as a failed payout leaves it; older than any other file's, so sent first. */
async function pendingRefund(amount: string): Promise<OnchainRefund & { refundAddress: Address }> {
  const refund = {
    id: `rfd_${ulid()}`, paymentId: `pay_${ulid()}`, tenantId: `ten_${randomUUID()}`, amount, currency: 'USDT' as const, blockchain: 'BSC' as const,
    refundAddress: `0x${randomBytes(20).toString('hex')}` as Address, status: 'pending' as const, txHash: null,
    createdAt: new Date(Date.UTC(1980, 0, 1) + ++age * 1000), sentAt: null, failureReason: null,
  };
  const at = new Date();
  await orm.em.fork().transactional(async (em) => {
    await createLedgerAccounts(em, refund.tenantId, ids, at);
    const ledger = new LedgerTxStore(em, ids);
    const move = { tenantId: refund.tenantId, currency: refund.currency, amount, at };
    expect(await ledger.post({ ...move, from: 'funding', to: 'in_transit', kind: 'sandbox_funding' })).toBe('posted');
    expect(await ledger.post({ ...move, from: 'in_transit', to: 'refund_pending', kind: 'return', paymentId: refund.paymentId })).toBe('posted');
    await new OnchainRefundTxStore(em).create(refund);
  });
  ours.push(refund.id);
  return refund;
}

const sql = <T>(query: string, params: unknown[]) => orm.em.fork().execute<T[]>(query, params);
const refundRow = async (id: string) => (await sql<{ status: string; tx_hash: string | null }>('select status, tx_hash from onchain_refunds where id = ?', [id]))[0]!;
const attempts = (refundId: string) => sql<{ status: string; tx_hashes: string[] }>('select status, tx_hashes from onchain_refund_attempts where refund_id = ?', [refundId]);
const refundLedger = (paymentId: string) => sql<{ amount: string }>(`select amount::text from ledger_transactions where payment_id = ? and kind = 'refund_sent'`, [paymentId]);
const transfersTo = (to: Address) => f.bsc.publicClient.getLogs({
  address: f.usdt, event: parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)'), args: { to }, fromBlock: 0n,
});

it.each([
  ['before', 'between sign and broadcast: the node never saw the transaction'],
  ['after', 'between broadcast and record: the node took and mined it, the service never heard back'],
] as const)('killed -9 %s the broadcast (%s): after a restart exactly one transfer arrives', async (when, _why) => {
  const refund = await pendingRefund('6.543210');
  const units = 6_543_210n * 10n ** 12n;
  const held = new Promise<void>((resolve) => {
    proxy.behaviour = { hold: (call) => (call.method === 'eth_sendRawTransaction' ? when : undefined), onHeld: () => resolve() };
  });
  const first = service();
  await Promise.race([held, first.exited.then(() => Promise.reject(new Error(`service exited:\n${first.stderr.join('\n')}`)))]);
  first.signal('SIGKILL');
  expect((await first.exited).signal).toBe('SIGKILL');
  proxy.behaviour = {};

  // What the killed service left: the attempt committed as signed, the refund still pending.
  expect((await attempts(refund.id)).map((a) => a.status)).toEqual(['signed']);
  expect((await refundRow(refund.id)).status).toBe('pending');
  expect(await transfersTo(refund.refundAddress)).toHaveLength(when === 'after' ? 1 : 0);

  const sendsBefore = proxy.calls.filter((c) => c.method === 'eth_sendRawTransaction').length;
  const second = service();
  await second.waitForLog((l) => l.msg === 'payout gateway listening', 60_000);
  mining = setInterval(() => void f.bsc.mine().catch(() => undefined), 250);
  const row = await eventually(async () => {
    const r = await refundRow(refund.id);
    return r.status === 'confirmed' ? r : undefined;
  }, 60_000);

  const transfers = await transfersTo(refund.refundAddress);
  expect(transfers.map((t) => [t.args.from?.toLowerCase(), t.args.value, t.transactionHash.toLowerCase()])).toEqual([[hotWallet.toLowerCase(), units, row.tx_hash]]);
  const [attempt, ...more] = await attempts(refund.id);
  expect(more).toEqual([]);
  // The same stored transaction, never a new one: one hash, and it is the one that landed.
  expect(attempt).toEqual({ status: 'landed', tx_hashes: [row.tx_hash] });
  expect(await refundLedger(refund.paymentId)).toEqual([{ amount: '6.543210' }]);
  // After the kill between broadcast and record, the restarted service found the hash and sent nothing again.
  const resent = proxy.calls.filter((c) => c.method === 'eth_sendRawTransaction').length - sendsBefore;
  if (when === 'after') expect(resent).toBe(0);
  else expect(resent).toBeGreaterThanOrEqual(1);
});
