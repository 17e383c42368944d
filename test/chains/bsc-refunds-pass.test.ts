/**
 * The refunds worker's pass (`sendRefundsPass`, docs/decisions.md § Refunds: never twice) with the
 * BSC sender on a real anvil and the real PostgreSQL unit of work: a pending refund ends confirmed
 * at finality with its ledger move, and a crash on either side of the broadcast still sends exactly
 * one transfer. anvil mines a block per transaction; the `finalized` tag (head − 2) moves only when
 * the test mines.
 */
import { randomUUID } from 'node:crypto';
import { MikroORM } from '@mikro-orm/postgresql';
import { ulid } from 'ulid';
import { getAddress, parseAbiItem, type Address } from 'viem';
import { ormOptions } from '../../src/adapters/persistence/mikro-orm.config';
import { createLedgerAccounts, LedgerTxStore } from '../../src/adapters/persistence/ledger.repository';
import { OnchainRefundTxStore } from '../../src/adapters/persistence/onchain-refund.repository';
import { MikroUnitOfWork } from '../../src/adapters/persistence/unit-of-work';
import { RefundSenderRepository } from '../../src/adapters/persistence/refund-sender.repository';
import { systemClock, ulidGenerator } from '../../src/adapters/providers/system';
import type { OnchainRefund } from '../../src/core/refunds/onchain-refund';
import type { Clock } from '../../src/core/shared/clock';
import type { RefundSender } from '../../src/core/refunds/refund-sender';
import { sendRefundsPass, type SendRefundDeps } from '../../src/core/refunds/send-refund';
import { startBscRefundFixture, type BscRefundFixture, type HotWallet } from '../support/chains/bsc-refund-fixture';

jest.setTimeout(60_000);

const ids = ulidGenerator();
let f: BscRefundFixture;
let orm: MikroORM;
/** This file's refunds: the sender refuses any other (another file's pending refund must never be sent from here). */
const ours = new Set<string>();
let age = 0;

beforeAll(async () => {
  f = await startBscRefundFixture();
  orm = await MikroORM.init(ormOptions(process.env.TEST_DATABASE_URL!, 4));
}, 60_000);
afterAll(async () => {
  // Out of every later sender's way: these refunds are older than any other test's.
  if (ours.size > 0) await orm?.em.fork().execute(`update onchain_refunds set status = 'failed' where id in (${[...ours].map(() => '?').join(',')}) and status = 'pending'`, [...ours]);
  await orm?.close(true);
  await f?.stop();
});

/**
 * A live payment's refund waiting in `refund_pending`, as a failed payout leaves it: the tenant's
 * ledger rows, `amount` moved funding → in_transit → refund_pending, and the pending refund.
 * Created in 1990 so the pass meets it before any other file's pending BSC refund.
 */
async function pendingRefund(amount: string, refundAddress?: string): Promise<OnchainRefund & { refundAddress: Address }> {
  const fresh = f.refund(amount);
  const base = { ...fresh, refundAddress: (refundAddress ?? fresh.refundAddress) as Address };
  const refund = { ...base, createdAt: new Date(Date.UTC(1990, 0, 1) + ++age * 1000) };
  const at = new Date();
  await orm.em.fork().transactional(async (em) => {
    await createLedgerAccounts(em, refund.tenantId, ids, at);
    const ledger = new LedgerTxStore(em, ids);
    const move = { tenantId: refund.tenantId, currency: refund.currency, amount, at };
    expect(await ledger.post({ ...move, from: 'funding', to: 'in_transit', kind: 'sandbox_funding' })).toBe('posted');
    expect(await ledger.post({ ...move, from: 'in_transit', to: 'refund_pending', kind: 'return', paymentId: refund.paymentId })).toBe('posted');
    await new OnchainRefundTxStore(em).create(refund);
  });
  ours.add(refund.id);
  return refund;
}

/** The pass's ports: the real unit of work, the sender (wrapped to refuse other files' refunds), the system clock. */
function depsFor(sender: RefundSender, clock: Clock = systemClock): SendRefundDeps {
  const guarded: RefundSender = Object.assign(Object.create(sender) as RefundSender, {
    sign: (refund: OnchainRefund, options: Parameters<RefundSender['sign']>[1]) => {
      if (!ours.has(refund.id)) throw new Error(`refund ${refund.id} is not this file's: the pass must not send it`);
      return sender.sign(refund, options);
    },
  });
  return {
    uow: new MikroUnitOfWork(orm.em, ids, systemClock), sender: guarded, clock, newAttemptId: () => `rfa_${ulid()}`, newEventId: () => randomUUID(),
    findings: new RefundSenderRepository(orm.em),
  };
}

/** `sender` whose next broadcast is "killed": `before` it reaches the chain, or `after` it did and before the pass records it. */
function crashingOnce(sender: RefundSender, when: 'before' | 'after'): RefundSender {
  let armed = true;
  return Object.assign(Object.create(sender) as RefundSender, {
    broadcast: async (raw: string) => {
      const crash = armed;
      armed = false;
      if (crash && when === 'before') throw new Error('killed before the broadcast');
      await sender.broadcast(raw);
      if (crash && when === 'after') throw new Error('killed after the broadcast');
    },
  });
}

const sql = <T>(query: string, params: unknown[]) => orm.em.fork().execute<T[]>(query, params);
const refundRow = async (id: string) => (await sql<{ status: string; tx_hash: string | null; sent: boolean }>(
  'select status, tx_hash, sent_at is not null as sent from onchain_refunds where id = ?', [id]))[0]!;
const failureOf = async (id: string) => (await sql<{ status: string; failure_reason: string | null }>(
  'select status, failure_reason from onchain_refunds where id = ?', [id]))[0]!;
const outboxTypes = async (refundId: string) => (await sql<{ type: string }>(
  'select type from outbox_events where entity_id = ? order by created_at', [refundId])).map((r) => r.type);
const attempts = (refundId: string) => sql<{ status: string; tx_hashes: string[] | string; nonce: string }>(
  'select status, tx_hashes, nonce::text from onchain_refund_attempts where refund_id = ?', [refundId]);
const balances = async (tenantId: string) => Object.fromEntries((await sql<{ kind: string; balance: string }>(
  `select kind, sum(balance)::text as balance from ledger_accounts where tenant_id = ? and currency = 'USDT' and kind in ('refund_pending', 'refunded') group by kind`,
  [tenantId])).map((r) => [r.kind, r.balance]));
const refundLedger = (paymentId: string) => sql<{ amount: string; from_kind: string; to_kind: string }>(
  `select amount::text, from_kind, to_kind from ledger_transactions where payment_id = ? and kind = 'refund_sent'`, [paymentId]);
/** Every token Transfer to `to` onchain, whatever sent it. */
const transfersTo = (to: Address) => f.bsc.publicClient.getLogs({
  address: f.usdt, event: parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)'), args: { to }, fromBlock: 0n,
});

/** Passes until the refund is final: `waiting` until the test mines past its block, then `confirmed`. */
async function untilConfirmed(deps: SendRefundDeps, refundId: string): Promise<void> {
  expect(await sendRefundsPass(deps)).toBe('waiting');
  expect((await refundRow(refundId)).status).toBe('broadcast');
  await f.bsc.mine(2);
  expect(await sendRefundsPass(deps)).toBe('confirmed');
}

async function expectSentOnce(w: HotWallet, refund: OnchainRefund & { refundAddress: Address }, units: bigint): Promise<void> {
  const [transfer, ...more] = await transfersTo(refund.refundAddress);
  expect(more).toEqual([]);
  expect(transfer!.args).toEqual({ from: expect.stringMatching(new RegExp(`^${w.address}$`, 'i')), to: expect.stringMatching(new RegExp(`^${refund.refundAddress}$`, 'i')), value: units });
  expect(await f.bsc.balanceOf(f.usdt, refund.refundAddress)).toBe(units);
  const row = await refundRow(refund.id);
  expect(row).toEqual({ status: 'confirmed', tx_hash: transfer!.transactionHash.toLowerCase(), sent: true });
  expect(await balances(refund.tenantId)).toEqual({ refund_pending: '0.000000', refunded: refund.amount });
  expect(await refundLedger(refund.paymentId)).toEqual([{ amount: refund.amount, from_kind: 'refund_pending', to_kind: 'refunded' }]);
}

describe('sendRefundsPass with the BSC sender on anvil and PostgreSQL', () => {
  it('a pending refund is broadcast, waits for the finalized tag, then ends confirmed: tokens once, refund_pending → refunded', async () => {
    const w = await f.wallet();
    const refund = await pendingRefund('12.115416');
    const deps = depsFor(w.sender);
    expect(await sendRefundsPass(deps)).toBe('broadcast');
    const [attempt] = await attempts(refund.id);
    expect(attempt).toMatchObject({ status: 'broadcast', nonce: '0' });
    expect((await refundRow(refund.id)).status).toBe('broadcast');
    expect(await balances(refund.tenantId)).toEqual({ refund_pending: '12.115416', refunded: '0.000000' });
    await untilConfirmed(deps, refund.id);
    expect((await attempts(refund.id)).map((a) => a.status)).toEqual(['landed']);
    await expectSentOnce(w, refund, 12_115_416n * 10n ** 12n);
  });

  it('a crash between the commit and the broadcast: the next pass broadcasts the stored transaction, and exactly one transfer arrives', async () => {
    const w = await f.wallet();
    const refund = await pendingRefund('3.250000');
    await expect(sendRefundsPass(depsFor(crashingOnce(w.sender, 'before')))).rejects.toThrow('killed before the broadcast');
    expect((await attempts(refund.id)).map((a) => a.status)).toEqual(['signed']);
    expect((await refundRow(refund.id)).status).toBe('pending');
    expect(await transfersTo(refund.refundAddress)).toEqual([]);

    const deps = depsFor(w.sender);
    expect(await sendRefundsPass(deps)).toBe('broadcast');
    await untilConfirmed(deps, refund.id);
    expect(await attempts(refund.id)).toHaveLength(1);
    await expectSentOnce(w, refund, 3_250_000n * 10n ** 12n);
  });

  it('a crash after the broadcast, before it is recorded: the next pass finds the stored hash onchain and sends nothing again', async () => {
    const w = await f.wallet();
    const refund = await pendingRefund('7.000001');
    await expect(sendRefundsPass(depsFor(crashingOnce(w.sender, 'after')))).rejects.toThrow('killed after the broadcast');
    expect((await attempts(refund.id)).map((a) => a.status)).toEqual(['signed']);
    expect(await transfersTo(refund.refundAddress)).toHaveLength(1);

    const deps = depsFor(w.sender);
    await untilConfirmed(deps, refund.id);
    expect(await attempts(refund.id)).toHaveLength(1);
    await expectSentOnce(w, refund, 7_000_001n * 10n ** 12n);
  });

  it('a transaction stuck in the pool past REFUND_REPLACE_AFTER_MS is replaced under its nonce with a higher fee; only the replacement lands', async () => {
    const w = await f.wallet();
    const refund = await pendingRefund('9.000000');
    let later = 0;
    const deps = depsFor(w.sender, { now: () => new Date(Date.now() + later) });
    await f.withoutAutomine(async () => {
      expect(await sendRefundsPass(deps)).toBe('broadcast');
      expect(await sendRefundsPass(deps)).toBe('waiting');
      later = 120_000;
      expect(await sendRefundsPass(deps)).toBe('replaced');
      const [attempt] = await attempts(refund.id);
      const hashes = typeof attempt!.tx_hashes === 'string' ? JSON.parse(attempt!.tx_hashes) as string[] : attempt!.tx_hashes;
      expect(hashes).toHaveLength(2);
      expect((await refundRow(refund.id)).tx_hash).toBe(hashes[1]);
      await f.bsc.mine();
      expect(await w.sender.lookup(hashes[0]!)).toEqual({ status: 'not_found' });
      expect(await w.sender.lookup(hashes[1]!)).toMatchObject({ status: 'landed' });
    });
    await untilConfirmed(deps, refund.id);
    await expectSentOnce(w, refund, 9n * 10n ** 18n);
  });

  it('an operator\'s own transaction takes the attempt\'s nonce: the attempt expires at finality, the refund is sent again under the next nonce, once', async () => {
    const w = await f.wallet();
    const refund = await pendingRefund('2.500000');
    const deps = depsFor(w.sender);
    await f.withoutAutomine(async () => {
      expect(await sendRefundsPass(deps)).toBe('broadcast');
      await f.outsideTransaction(w.key, { nonce: 0, gasPrice: 10n ** 11n });
      await f.bsc.mine();
    });
    // Our transaction is out of the pool; sending it again is answered "nonce too low", which is no error.
    expect(await sendRefundsPass(deps)).toBe('waiting');
    expect(await transfersTo(refund.refundAddress)).toEqual([]);
    await f.bsc.mine(2);
    expect(await sendRefundsPass(deps)).toBe('dropped');
    expect((await refundRow(refund.id)).status).toBe('pending');
    expect(await sendRefundsPass(deps)).toBe('broadcast');
    expect((await attempts(refund.id)).map((a) => [a.status, a.nonce]).sort()).toEqual([['broadcast', '1'], ['dropped', '0']]);
    await untilConfirmed(deps, refund.id);
    await expectSentOnce(w, refund, 2_500_000n * 10n ** 12n);
  });

  describe('a refund the BSC sender refuses is failed with its reason, and the one behind it goes out', () => {
    it.each([
      ['invalid_address', 'a mixed-case address with a wrong checksum'],
      ['own_address', 'the hot wallet itself'],
      ['amount_not_representable', 'an amount finer than the token (a 4-decimal token here)'],
    ])('%s: %s', async (reason) => {
      const w = await f.wallet();
      const sender = reason === 'amount_not_representable'
        ? f.senderWith(w.key, { tokens: [{ currency: 'USDT', contract: f.usdt, decimals: 4 }] })
        : w.sender;
      const to = getAddress(f.refund('1').refundAddress);
      const flipped = to.slice(0, 2) + [...to.slice(2)].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
      const address = reason === 'invalid_address' ? flipped : reason === 'own_address' ? w.address : undefined;
      const bad = await pendingRefund('4.000001', address);
      const good = await pendingRefund('1.500000');
      const deps = depsFor(w.sender);
      const refusing = depsFor(sender);
      const before = await f.bsc.publicClient.getTransactionCount({ address: w.address });

      expect(await sendRefundsPass(refusing)).toBe('failed');
      expect(await failureOf(bad.id)).toEqual({ status: 'failed', failure_reason: reason });
      expect(await attempts(bad.id)).toEqual([]);
      expect(await f.bsc.publicClient.getTransactionCount({ address: w.address })).toBe(before);
      expect(await outboxTypes(bad.id)).toEqual(['refund.failed']);
      expect(await balances(bad.tenantId)).toEqual({ refund_pending: '4.000001', refunded: '0.000000' });

      expect(await sendRefundsPass(deps)).toBe('broadcast');
      await untilConfirmed(deps, good.id);
      await expectSentOnce(w, good, 1_500_000n * 10n ** 12n);
      expect(await failureOf(good.id)).toEqual({ status: 'confirmed', failure_reason: null });
    });
  });
});
