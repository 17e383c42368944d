import { sendRefundsPass, type SendRefundDeps } from '../../src/core/refunds/send-refund';
import type { ShortfallChange } from '../../src/core/refunds/refund-funds';
import type { FakeRefundChain } from '../support/fake-refund-chain';
import { refundPassWorld, type RefundPassWorld } from '../support/refund-pass-world';
import type { FakeWorld } from '../support/fake-world';

/**
 * Refunds the sender refuses (docs/decisions.md § Refunds: refusals), on in-memory ports: each
 * refusal code fails the refund with its reason and `refund.failed`, signs nothing, moves no
 * ledger entry, and the refund behind it goes out; a revert is stored as `reverted`.
 */
describe('a refund the sender refuses', () => {
  let world: FakeWorld;
  let chain: FakeRefundChain;
  let deps: SendRefundDeps;
  let changes: ShortfallChange[];
  let pendingRefund: RefundPassWorld['pendingRefund'];
  beforeEach(() => {
    ({ world, chain, deps, changes, pendingRefund } = refundPassWorld());
  });

  const refund = (id: string) => world.store.refunds.get(id)!;
  const attempts = () => [...world.store.refundAttempts.values()];
  const refundLedger = (paymentId: string) => world.store.transfers.filter((t) => t.paymentId === paymentId && t.kind === 'refund_sent');

  const refundEvents = (refundId: string) => world.store.outbox.filter((e) => e.entityId === refundId).map((e) => ({ type: e.type, payload: e.payload }));

  /** Edits the stored pending refund as a malformed row would hold it. */
  const corrupt = (refundId: string, change: { refundAddress?: string; amount?: string }) => {
    world.store.refunds.set(refundId, { ...refund(refundId), ...change });
  };
  const cases: [string, (r: { refundId: string; to: string }) => void, string][] = [
    ['not an address of its chain', (r) => corrupt(r.refundId, { refundAddress: '0x4B16c5dE96EB2117bBE5fd171E4d203624B014aa' }), 'invalid_address'],
    ['the hot wallet itself', (r) => { chain.wallet = r.to; }, 'own_address'],
    ['an amount the token cannot hold', (r) => corrupt(r.refundId, { amount: '0.0000001' }), 'amount_not_representable'],
  ];
  it.each(cases)('to %s: failed with its reason and refund.failed, nothing signed, and the refund behind it goes out', async (_name, spoil, reason) => {
    const bad = await pendingRefund();
    world.clock.advance(1_000);
    const good = await pendingRefund();
    spoil(bad);
    expect(await sendRefundsPass(deps)).toBe('failed');
    expect(refund(bad.refundId)).toMatchObject({ status: 'failed', failureReason: reason, txHash: null, sentAt: null });
    expect(chain.calls.filter((c) => c === 'sign' || c === 'broadcast')).toEqual([]);
    expect(attempts()).toEqual([]);
    expect(refundLedger(bad.paymentId)).toHaveLength(0);
    expect(refundEvents(bad.refundId).map((e) => [e.type, e.payload.status])).toEqual([['refund.pending', 'pending'], ['refund.failed', 'failed']]);

    // Not blocked: the next pass sends the refund after it.
    if (reason === 'own_address') chain.wallet = '0x00000000000000000000000000000000000000aa';
    expect(await sendRefundsPass(deps)).toBe('broadcast');
    expect(attempts()).toEqual([expect.objectContaining({ refundId: good.refundId })]);
    for (let i = 0; i < 4; i++) chain.mine();
    expect(await sendRefundsPass(deps)).toBe('confirmed');
    expect(refund(good.refundId)).toMatchObject({ status: 'confirmed', failureReason: null });
    expect(refund(bad.refundId).status).toBe('failed');
    expect(await sendRefundsPass(deps)).toBe('idle');
  });

  it('is judged before the funds: a refused refund fails even while the wallet is short, and raises no finding', async () => {
    const bad = await pendingRefund();
    corrupt(bad.refundId, { refundAddress: 'not-an-address' });
    chain.short = 'gas';
    expect(await sendRefundsPass(deps)).toBe('failed');
    expect(refund(bad.refundId).failureReason).toBe('invalid_address');
    expect(changes).toEqual([]);
  });

  it('a retried failed refund loses its reason (the move back to pending clears it)', async () => {
    const bad = await pendingRefund();
    corrupt(bad.refundId, { refundAddress: 'not-an-address' });
    expect(await sendRefundsPass(deps)).toBe('failed');
    await world.store.transact(async (tx) => ({ ok: true as const, value: await tx.refunds.setStatus(bad.refundId, 'failed', 'pending', null, null) }));
    expect(refund(bad.refundId)).toMatchObject({ status: 'pending', failureReason: null });
  });

  it('a reverted transaction is failed with reason reverted', async () => {
    const { refundId } = await pendingRefund();
    await sendRefundsPass(deps);
    chain.revertNext = true;
    for (let i = 0; i < 4; i++) chain.mine();
    expect(await sendRefundsPass(deps)).toBe('failed');
    expect(refund(refundId)).toMatchObject({ status: 'failed', failureReason: 'reverted' });
  });
});
