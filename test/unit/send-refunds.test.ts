import { markRefundSent } from '../../src/core/refunds/manage-refunds';
import { REFUND_MOVES, REFUND_STATUSES, transition, type RefundMove } from '../../src/core/refunds/refund-states';
import { sendRefundsPass, type SendRefundDeps } from '../../src/core/refunds/send-refund';
import type { FakeRefundChain } from '../support/fake-refund-chain';
import { refundPassWorld, type RefundPassWorld } from '../support/refund-pass-world';
import type { MemoryShortfallFindings } from '../support/memory-shortfall-findings';
import type { ShortfallChange } from '../../src/core/refunds/refund-funds';
import { KES_1500_USDC, TENANT, type FakeWorld } from '../support/fake-world';
import { solanaTxHash } from '../support/tx-hashes';

describe('refund states', () => {
  const table: [string, RefundMove, string | undefined][] = [
    ['pending', 'broadcast', 'broadcast'], ['broadcast', 'confirm', 'confirmed'], ['broadcast', 'drop', 'pending'],
    ['broadcast', 'fail', 'failed'], ['pending', 'fail', 'failed'], ['failed', 'retry', 'pending'], ['pending', 'record_sent', 'sent'],
    ['pending', 'confirm', undefined], ['confirmed', 'drop', undefined], ['sent', 'broadcast', undefined], ['broadcast', 'record_sent', undefined],
    ['confirmed', 'fail', undefined], ['failed', 'record_sent', 'sent'], ['confirmed', 'record_sent', undefined],
  ];
  it.each(table)('%s --%s--> %s', (from, move, to) => {
    expect(transition(from as never, move)).toBe(to);
  });

  it('every move starts and ends in a known status, and nothing leaves confirmed or sent', () => {
    for (const [move, rule] of Object.entries(REFUND_MOVES)) {
      expect(REFUND_STATUSES).toContain(rule.to);
      for (const from of rule.from) expect(transition(from, move as RefundMove)).toBe(rule.to);
    }
    for (const move of Object.keys(REFUND_MOVES) as RefundMove[]) {
      expect([transition('confirmed', move), transition('sent', move)]).toEqual([undefined, undefined]);
    }
  });
});

/** The use case "send a pending refund exactly once" on in-memory ports (docs/decisions.md § Refunds). */
describe('sending a pending refund exactly once', () => {
  let world: FakeWorld;
  let chain: FakeRefundChain;
  let deps: SendRefundDeps;
  let findings: MemoryShortfallFindings;
  let changes: ShortfallChange[];
  let pendingRefund: RefundPassWorld['pendingRefund'];
  beforeEach(() => {
    ({ world, chain, deps, findings, changes, pendingRefund } = refundPassWorld());
  });

  const refund = (id: string) => world.store.refunds.get(id)!;
  const attempts = () => [...world.store.refundAttempts.values()];
  const balances = () => [world.store.balance(TENANT, 'USDC', 'refund_pending'), world.store.balance(TENANT, 'USDC', 'refunded')];
  const refundLedger = (paymentId: string) => world.store.transfers.filter((t) => t.paymentId === paymentId && t.kind === 'refund_sent');

  it('signs and stores the hash before the broadcast, and confirms (ledger included) only at finality', async () => {
    const { refundId, paymentId, to } = await pendingRefund();
    const broadcast = chain.broadcast.bind(chain);
    let storedAtBroadcast: unknown;
    chain.broadcast = async (raw) => {
      storedAtBroadcast = attempts().map((a) => ({ status: a.status, txHashes: a.txHashes }));
      return broadcast(raw);
    };
    expect(await sendRefundsPass(deps)).toBe('broadcast');
    const [attempt] = attempts();
    expect(storedAtBroadcast).toEqual([{ status: 'signed', txHashes: [attempt!.txHashes[0]] }]);
    expect(attempt).toMatchObject({ refundId, status: 'broadcast', attempts: 1, nonce: 0n });
    expect(refund(refundId)).toMatchObject({ status: 'broadcast', txHash: attempt!.txHashes[0], sentAt: null });

    chain.mine();
    expect(await sendRefundsPass(deps)).toBe('waiting');
    expect(refund(refundId).status).toBe('broadcast');
    expect(balances()).toEqual([KES_1500_USDC, '0.000000']);

    chain.finalizeAll();
    expect(await sendRefundsPass(deps)).toBe('confirmed');
    expect(refund(refundId)).toMatchObject({ status: 'confirmed', txHash: attempt!.txHashes[0], sentAt: world.clock.now() });
    expect(attempts()[0]).toMatchObject({ status: 'landed', landedHash: attempt!.txHashes[0], landedHeight: 101n });
    expect(balances()).toEqual(['0.000000', KES_1500_USDC]);
    expect(refundLedger(paymentId)).toHaveLength(1);
    expect(chain.transfersTo(to)).toEqual([expect.objectContaining({ amount: KES_1500_USDC })]);
    expect(await sendRefundsPass(deps)).toBe('idle');
  });

  it.each(['before', 'after'] as const)('killed %s the broadcast: the next pass looks the stored hash up first and one transfer arrives', async (when) => {
    const { refundId, to } = await pendingRefund();
    chain.crash = when;
    await expect(sendRefundsPass(deps)).rejects.toThrow(/killed/);
    expect(attempts()).toEqual([expect.objectContaining({ status: 'signed' })]);
    expect(refund(refundId).status).toBe('pending');
    const hash = attempts()[0]!.txHashes[0]!;

    chain.calls.length = 0;
    expect(await sendRefundsPass(deps)).toBe('broadcast');
    expect(chain.calls).toEqual([`lookup ${hash}`, 'broadcast']);
    for (let i = 0; i < 4; i++) chain.mine();
    expect(await sendRefundsPass(deps)).toBe('confirmed');
    expect(chain.transfersTo(to)).toHaveLength(1);
    expect(attempts()).toHaveLength(1);
    expect(chain.calls.filter((c) => c === 'sign')).toHaveLength(0);
  });

  it('killed after the broadcast and after it landed: the stored hash is found and followed to finality, nothing re-sent', async () => {
    const { refundId, to } = await pendingRefund();
    chain.crash = 'after';
    await expect(sendRefundsPass(deps)).rejects.toThrow(/killed/);
    for (let i = 0; i < 4; i++) chain.mine();
    chain.calls.length = 0;
    expect(await sendRefundsPass(deps)).toBe('confirmed');
    expect(chain.calls).toEqual([`lookup ${attempts()[0]!.txHashes[0]}`]);
    expect(refund(refundId).status).toBe('confirmed');
    expect(chain.transfersTo(to)).toHaveLength(1);
  });

  it('a stuck transaction is replaced under the same nonce with a higher fee; only one lands, whichever hash it is', async () => {
    const { refundId, to } = await pendingRefund();
    chain.minFee = 2;
    expect(await sendRefundsPass(deps)).toBe('broadcast');
    chain.mine();
    chain.isStuck = true;
    expect(await sendRefundsPass(deps)).toBe('replaced');
    const [attempt] = attempts();
    expect(attempt).toMatchObject({ attempts: 2, nonce: 0n, status: 'broadcast' });
    expect(attempt!.txHashes).toHaveLength(2);
    expect(refund(refundId).txHash).toBe(attempt!.txHashes[1]);
    chain.isStuck = false;
    for (let i = 0; i < 4; i++) chain.mine();
    expect(await sendRefundsPass(deps)).toBe('confirmed');
    expect(refund(refundId)).toMatchObject({ status: 'confirmed', txHash: attempt!.txHashes[1] });
    expect(chain.transfersTo(to)).toHaveLength(1);
  });

  it('a dropped attempt (its nonce used by another transaction, final) goes back to pending and is sent again under a new nonce', async () => {
    const { refundId, to } = await pendingRefund();
    chain.minFee = 5;
    expect(await sendRefundsPass(deps)).toBe('broadcast');
    chain.foreignTransaction();
    expect(await sendRefundsPass(deps)).toBe('waiting');
    chain.finalizeAll();
    expect(await sendRefundsPass(deps)).toBe('dropped');
    expect(refund(refundId)).toMatchObject({ status: 'pending', txHash: null });
    chain.minFee = 1;
    expect(await sendRefundsPass(deps)).toBe('broadcast');
    expect(attempts().map((a) => [a.status, a.nonce])).toEqual([['dropped', 0n], ['broadcast', 1n]]);
    for (let i = 0; i < 4; i++) chain.mine();
    expect(await sendRefundsPass(deps)).toBe('confirmed');
    expect(chain.transfersTo(to)).toHaveLength(1);
  });

  it('a reverted transaction fails the refund for an operator and moves no ledger entry', async () => {
    const { refundId, paymentId } = await pendingRefund();
    await sendRefundsPass(deps);
    chain.revertNext = true;
    for (let i = 0; i < 4; i++) chain.mine();
    expect(await sendRefundsPass(deps)).toBe('failed');
    expect(refund(refundId).status).toBe('failed');
    expect(attempts()[0]).toMatchObject({ status: 'reverted' });
    expect(refundLedger(paymentId)).toHaveLength(0);
    expect(balances()).toEqual([KES_1500_USDC, '0.000000']);
    expect(await sendRefundsPass(deps)).toBe('idle');
  });

  it('one attempt at a time per hot wallet: a second refund waits until the first is final', async () => {
    const first = await pendingRefund();
    const second = await pendingRefund();
    expect(await sendRefundsPass(deps)).toBe('broadcast');
    expect(await sendRefundsPass(deps)).toBe('waiting');
    expect(refund(second.refundId).status).toBe('pending');
    for (let i = 0; i < 4; i++) chain.mine();
    expect(await sendRefundsPass(deps)).toBe('confirmed');
    expect(await sendRefundsPass(deps)).toBe('broadcast');
    expect(attempts().map((a) => a.nonce)).toEqual([0n, 1n]);
    for (let i = 0; i < 4; i++) chain.mine();
    expect(await sendRefundsPass(deps)).toBe('confirmed');
    expect([refund(first.refundId).status, refund(second.refundId).status]).toEqual(['confirmed', 'confirmed']);
  });

  it('an operator cannot record a hand-sent hash on a refund the hot wallet is sending', async () => {
    const { refundId } = await pendingRefund();
    await sendRefundsPass(deps);
    const manual = { uow: world.store, clock: world.clock, refunds: { list: async () => [], pendingTotals: async () => [] } };
    expect(await markRefundSent(manual, refundId, solanaTxHash(), 'key_operator')).toMatchObject({ ok: false, code: 'invalid_state' });
    expect(refund(refundId).status).toBe('broadcast');
  });

  const refundEvents = (refundId: string) => world.store.outbox.filter((e) => e.entityId === refundId).map((e) => ({ type: e.type, payload: e.payload }));

  it('an empty hot wallet: nothing is signed, the refund waits pending, one finding says which wallet lacks what; a top-up sends it and clears it', async () => {
    const { refundId } = await pendingRefund();
    chain.short = 'token';
    for (let i = 0; i < 3; i++) expect(await sendRefundsPass(deps)).toBe('short');
    expect(chain.calls.filter((c) => c === 'sign' || c === 'broadcast')).toEqual([]);
    expect(attempts()).toEqual([]);
    expect(refund(refundId)).toMatchObject({ status: 'pending', txHash: null });
    // Raised once while short, not once per pass.
    expect(changes).toEqual([{ change: 'raised', finding: {
      chain: 'SOLANA', wallet: chain.wallet, lacks: 'token', refundId, currency: 'USDC', amount: KES_1500_USDC, since: world.clock.now(),
    } }]);
    expect(findings.writes).toBe(1);

    // Tokens topped up, gas still short: the finding is superseded by the gas one.
    chain.short = 'gas';
    expect(await sendRefundsPass(deps)).toBe('short');
    expect(changes.map((c) => [c.change, c.finding.lacks])).toEqual([['raised', 'token'], ['changed', 'gas']]);
    expect([...findings.standing.values()]).toEqual([expect.objectContaining({ lacks: 'gas', refundId })]);

    chain.short = undefined;
    expect(await sendRefundsPass(deps)).toBe('broadcast');
    expect(changes.map((c) => c.change)).toEqual(['raised', 'changed', 'cleared']);
    expect(findings.standing.size).toBe(0);
    for (let i = 0; i < 4; i++) chain.mine();
    expect(await sendRefundsPass(deps)).toBe('confirmed');
    expect(chain.transfersTo(refund(refundId).refundAddress)).toHaveLength(1);
  });

  it('a finding whose refunds were settled by hand meanwhile is cleared when nothing is owed', async () => {
    const { refundId } = await pendingRefund();
    chain.short = 'gas';
    expect(await sendRefundsPass(deps)).toBe('short');
    const manual = { uow: world.store, clock: world.clock, refunds: { list: async () => [], pendingTotals: async () => [] } };
    expect((await markRefundSent(manual, refundId, solanaTxHash(), 'key_operator')).ok).toBe(true);
    expect(await sendRefundsPass(deps)).toBe('idle');
    expect(changes.map((c) => c.change)).toEqual(['raised', 'cleared']);
    expect(findings.standing.size).toBe(0);
  });

  it('webhooks: refund.pending when the refund is created, refund.confirmed at finality, each with the refund as data', async () => {
    const { refundId, paymentId, to } = await pendingRefund();
    const pending = {
      id: refundId, paymentId, amount: KES_1500_USDC, currency: 'USDC', blockchain: 'SOLANA', refundAddress: to, status: 'pending', txHash: null,
      createdAt: refund(refundId).createdAt.toISOString(), sentAt: null,
    };
    expect(refundEvents(refundId)).toEqual([{ type: 'refund.pending', payload: pending }]);
    expect(world.store.outbox.find((e) => e.entityId === refundId)).toMatchObject({ tenantId: TENANT });
    expect(await sendRefundsPass(deps)).toBe('broadcast');
    chain.mine();
    expect(await sendRefundsPass(deps)).toBe('waiting');
    expect(refundEvents(refundId)).toHaveLength(1);
    chain.finalizeAll();
    world.clock.advance(5_000);
    expect(await sendRefundsPass(deps)).toBe('confirmed');
    const hash = attempts()[0]!.txHashes[0];
    expect(refundEvents(refundId)).toEqual([
      { type: 'refund.pending', payload: pending },
      { type: 'refund.confirmed', payload: { ...pending, status: 'confirmed', txHash: hash, sentAt: world.clock.now().toISOString() } },
    ]);
  });

  it('webhooks: refund.failed when the transaction reverted; a drop back to pending sends nothing', async () => {
    const reverted = await pendingRefund();
    await sendRefundsPass(deps);
    chain.revertNext = true;
    for (let i = 0; i < 4; i++) chain.mine();
    expect(await sendRefundsPass(deps)).toBe('failed');
    expect(refundEvents(reverted.refundId).map((e) => [e.type, e.payload.status, e.payload.txHash])).toEqual([
      ['refund.pending', 'pending', null], ['refund.failed', 'failed', attempts()[0]!.txHashes[0]],
    ]);

    const dropped = await pendingRefund();
    chain.minFee = 5;
    expect(await sendRefundsPass(deps)).toBe('broadcast');
    chain.foreignTransaction();
    chain.finalizeAll();
    expect(await sendRefundsPass(deps)).toBe('dropped');
    expect(refundEvents(dropped.refundId).map((e) => e.type)).toEqual(['refund.pending']);
  });

  it('an event is written in the move\'s transaction: a confirm that fails writes no refund.confirmed', async () => {
    const { refundId } = await pendingRefund();
    await sendRefundsPass(deps);
    for (let i = 0; i < 4; i++) chain.mine();
    const post = world.store.transact.bind(world.store);
    // The ledger refuses inside the confirm's transaction: everything in it rolls back.
    world.store.transact = (async (work: Parameters<typeof post>[0]) => post(async (tx) => work({
      ...tx, ledger: { ...tx.ledger, post: async () => 'duplicate' as never },
    }))) as typeof post;
    await expect(sendRefundsPass(deps)).rejects.toThrow(/ledger refused/);
    expect(refund(refundId).status).toBe('broadcast');
    expect(refundEvents(refundId).map((e) => e.type)).toEqual(['refund.pending']);
  });
});
