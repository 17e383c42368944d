import { randomUUID } from 'node:crypto';
import { applyMove } from '../../src/core/payments/advance-payment';
import { createMoneyOut } from '../../src/core/payments/create-money-out';
import { recordDeposit } from '../../src/core/ledger/record-deposit';
import { markRefundSent, retryRefund, type RefundDeps } from '../../src/core/refunds/manage-refunds';
import type { MoneyOutCommand } from '../../src/core/payments/money-out-rules';
import { command, fakeWorld, KES_1500_USDC, OTHER_TENANT, TENANT, type FakeWorld } from '../support/fake-world';
import { bscTxHash, solanaTxHash } from '../support/tx-hashes';

/** The admin key recorded as having made an operator's move. */
const OPERATOR = 'key_01JD4YB2C4E6G8J0L2N4Q6S8U0';

/** Refunds of live payments (docs/decisions.md § Ledger) on in-memory ports. */
describe('onchain refunds on fakes', () => {
  let world: FakeWorld;
  let deps: RefundDeps;
  beforeEach(() => {
    world = fakeWorld();
    world.store.fund(TENANT, 'USDC', '100');
    deps = { uow: world.store, clock: world.clock, refunds: { list: async () => [...world.store.refunds.values()], pendingTotals: async () => [] } };
  });

  /** An accepted payment of TENANT, whose world is then `environment` (the fake allows the switch; the service never does). */
  async function accepted(environment: 'sandbox' | 'live', overrides: Partial<MoneyOutCommand> = {}): Promise<string> {
    const created = await createMoneyOut(world.moneyOut, TENANT, randomUUID(), command({ reference: `order-${randomUUID()}`, ...overrides }));
    if (!created.ok) throw new Error(created.message);
    const id = created.value.payment.id;
    expect((await applyMove(world.advance, id, 'accept', { providerRef: 'prov-1' })).ok).toBe(true);
    world.routing.add(TENANT, environment);
    return id;
  }
  const ledgerOf = (id: string) => world.store.transfers.filter((t) => t.paymentId === id).map((t) => `${t.kind} ${t.from}→${t.to} ${t.amount}`);
  const balance = (kind: 'refund_pending' | 'refunded' | 'available') => world.store.balance(TENANT, 'USDC', kind);

  it.each(['fail', 'refund'] as const)('a live %s after acceptance writes a pending refund and holds the amount in refund_pending', async (move) => {
    const id = await accepted('live');
    expect((await applyMove(world.advance, id, move, { failure: { reason: 'gone', code: 'declined' } })).ok).toBe(true);
    expect([...world.store.refunds.values()]).toEqual([{
      id: expect.stringMatching(/^rfd_/), paymentId: id, tenantId: TENANT, amount: KES_1500_USDC, currency: 'USDC', blockchain: 'SOLANA',
      refundAddress: command().refundAddress, status: 'pending', txHash: null, createdAt: world.clock.now(), sentAt: null, failureReason: null,
    }]);
    expect(ledgerOf(id).at(-1)).toBe(`return in_transit→refund_pending ${KES_1500_USDC}`);
    expect([balance('refund_pending'), balance('refunded')]).toEqual([KES_1500_USDC, '0.000000']);
  });

  it('a live success settles and writes no refund: only a return to the wallet does', async () => {
    const id = await accepted('live');
    expect((await applyMove(world.advance, id, 'complete', {})).ok).toBe(true);
    expect(world.store.refunds.size).toBe(0);
    expect(ledgerOf(id).at(-1)).toBe(`settle in_transit→settled ${KES_1500_USDC}`);
  });

  it('a sandbox failure returns to refunded at once and writes no refund', async () => {
    const id = await accepted('sandbox');
    expect((await applyMove(world.advance, id, 'fail', { failure: { reason: 'gone', code: 'declined' } })).ok).toBe(true);
    expect(world.store.refunds.size).toBe(0);
    expect(ledgerOf(id).at(-1)).toBe(`return in_transit→refunded ${KES_1500_USDC}`);
  });

  it('recording the transaction: checked per chain, once; the same hash again is the same answer', async () => {
    const id = await accepted('live');
    await applyMove(world.advance, id, 'fail', { failure: { reason: 'gone', code: 'declined' } });
    const refundId = [...world.store.refunds.keys()][0]!;
    expect(await markRefundSent(deps, 'rfd_missing', solanaTxHash(), OPERATOR)).toMatchObject({ ok: false, code: 'not_found' });
    expect(await markRefundSent(deps, refundId, bscTxHash(), OPERATOR)).toMatchObject({ ok: false, code: 'validation_error' });
    expect(balance('refund_pending')).toBe(KES_1500_USDC);

    const txHash = solanaTxHash();
    const sent = await markRefundSent(deps, refundId, txHash, OPERATOR);
    expect(sent).toEqual({ ok: true, value: expect.objectContaining({ refundId, status: 'sent', txHash, amount: KES_1500_USDC, sentAt: world.clock.now().toISOString() }) });
    expect(ledgerOf(id).at(-1)).toBe(`refund_sent refund_pending→refunded ${KES_1500_USDC}`);
    expect([balance('refund_pending'), balance('refunded')]).toEqual(['0.000000', KES_1500_USDC]);
    expect(await markRefundSent(deps, refundId, txHash, OPERATOR)).toEqual(sent);
    expect(await markRefundSent(deps, refundId, solanaTxHash(), OPERATOR)).toMatchObject({ ok: false, code: 'invalid_state' });
    expect(ledgerOf(id).filter((t) => t.startsWith('refund_sent'))).toHaveLength(1);
  });

  /** The pending refund of a live payment of TENANT (`overrides` on the default command) that failed after acceptance. */
  async function pendingRefund(overrides: Partial<MoneyOutCommand> = {}): Promise<string> {
    const id = await accepted('live', overrides);
    expect((await applyMove(world.advance, id, 'fail', { failure: { reason: 'gone', code: 'declined' } })).ok).toBe(true);
    return [...world.store.refunds.values()].find((r) => r.paymentId === id)!.id;
  }
  const deposit = async (tenantId: string, blockchain: 'SOLANA' | 'BSC', txHash: string) =>
    expect((await recordDeposit({ uow: world.store, clock: world.clock, ids: world.ids }, tenantId, { currency: 'USDC', amount: '5', blockchain, txHash })).ok).toBe(true);

  it('refuses the hash of an inbound deposit, of any tenant, with tx_hash_is_deposit and moves nothing; another hash is then recorded', async () => {
    const refundId = await pendingRefund();
    const inbound = solanaTxHash();
    await deposit(OTHER_TENANT, 'SOLANA', inbound);
    const transfers = world.store.transfers.length;
    expect(await markRefundSent(deps, refundId, inbound, OPERATOR)).toEqual({
      ok: false, code: 'tx_hash_is_deposit', message: `Transaction ${inbound} on SOLANA is a recorded deposit, not a refund sent`,
    });
    expect(world.store.refunds.get(refundId)).toMatchObject({ status: 'pending', txHash: null, sentAt: null });
    expect(world.store.transfers).toHaveLength(transfers);
    expect([balance('refund_pending'), balance('refunded')]).toEqual([KES_1500_USDC, '0.000000']);

    const outbound = solanaTxHash();
    expect(await markRefundSent(deps, refundId, outbound, OPERATOR)).toMatchObject({ ok: true, value: { status: 'sent', txHash: outbound } });
  });

  it('compares BSC hashes in canonical form: a deposit credited in upper case refuses the same hash in any case', async () => {
    const refundId = await pendingRefund({ blockchain: 'BSC', refundAddress: `0x${'ab'.repeat(20)}` });
    const inbound = bscTxHash();
    await deposit(TENANT, 'BSC', `0x${inbound.slice(2).toUpperCase()}`);
    expect(await markRefundSent(deps, refundId, inbound, OPERATOR)).toMatchObject({ ok: false, code: 'tx_hash_is_deposit' });
    expect(await markRefundSent(deps, refundId, `0x${inbound.slice(2, 34).toUpperCase()}${inbound.slice(34)}`, OPERATOR)).toMatchObject({ ok: false, code: 'tx_hash_is_deposit' });
    expect(world.store.refunds.get(refundId)?.status).toBe('pending');
  });

  it('recording a hand-sent transaction is kept with who did it; the same hash again records nothing more', async () => {
    const refundId = await pendingRefund();
    const txHash = solanaTxHash();
    expect((await markRefundSent(deps, refundId, txHash, OPERATOR)).ok).toBe(true);
    expect((await markRefundSent(deps, refundId, txHash, 'key_other')).ok).toBe(true);
    expect(world.store.refundActions).toEqual([{ refundId, action: 'record_sent', actor: OPERATOR, from: 'pending', to: 'sent', txHash, at: world.clock.now() }]);
  });

  it('a failed refund (refused, or its transaction reverted) may be recorded as hand-sent: sent, its reason gone, the ledger moved', async () => {
    const refundId = await pendingRefund();
    await world.store.transact(async (tx) => ({ ok: true as const, value: await tx.refunds.setStatus(refundId, 'pending', 'failed', null, null, 'invalid_address') }));
    const txHash = solanaTxHash();
    expect(await markRefundSent(deps, refundId, txHash, OPERATOR)).toMatchObject({ ok: true, value: { status: 'sent', txHash } });
    expect(world.store.refunds.get(refundId)).toMatchObject({ status: 'sent', failureReason: null });
    expect([balance('refund_pending'), balance('refunded')]).toEqual(['0.000000', KES_1500_USDC]);
    expect(world.store.refundActions.at(-1)).toMatchObject({ action: 'record_sent', from: 'failed', to: 'sent' });
  });

  it('retry sends a failed refund back to pending with no transaction, kept with who did it; the ledger does not move', async () => {
    const refundId = await pendingRefund();
    const failed = await world.store.transact(async (tx) => ({ ok: true as const, value: await tx.refunds.setStatus(refundId, 'pending', 'failed', null, null) }));
    expect(failed.ok && failed.value.status).toBe('failed');
    const transfers = world.store.transfers.length;
    const retried = await retryRefund(deps, refundId, OPERATOR);
    expect(retried).toEqual({ ok: true, value: expect.objectContaining({ refundId, status: 'pending', txHash: null, sentAt: null }) });
    expect(world.store.refunds.get(refundId)).toMatchObject({ status: 'pending', txHash: null });
    expect(world.store.refundActions).toEqual([{ refundId, action: 'retry', actor: OPERATOR, from: 'failed', to: 'pending', txHash: null, at: world.clock.now() }]);
    expect(world.store.transfers).toHaveLength(transfers);
    expect(balance('refund_pending')).toBe(KES_1500_USDC);
  });

  it('retry refuses a refund that is not failed (invalid_state) and an unknown one (not_found), writing nothing', async () => {
    const refundId = await pendingRefund();
    expect(await retryRefund(deps, refundId, OPERATOR)).toEqual({
      ok: false, code: 'invalid_state', message: `Refund ${refundId} is pending: only a failed refund can be retried`,
    });
    expect(await retryRefund(deps, 'rfd_missing', OPERATOR)).toMatchObject({ ok: false, code: 'not_found' });
    expect(world.store.refunds.get(refundId)?.status).toBe('pending');
    expect(world.store.refundActions).toEqual([]);
  });
});
