import { randomUUID } from 'node:crypto';
import { applyMove, processDuePayments } from '../../src/core/payments/advance-payment';
import { createMoneyOut } from '../../src/core/payments/create-money-out';
import type { Payment } from '../../src/core/payments/payment';
import { toPaymentView } from '../../src/core/payments/payment-view';
import type { PaymentMove } from '../../src/core/payments/payment-state';
import type { AccountKind } from '../../src/core/ledger/ledger';
import { UNROUTED_RECHECK_MS } from '../../src/core/routing/provider-routing';
import { err } from '../../src/core/shared/result';
import { command, fakeWorld, KES_1500_USDC, TENANT, type FakeWorld } from '../support/fake-world';

/** The payout worker and applyMove (docs/decisions.md § Payments: states and events, § Ledger) on in-memory ports. */
describe('advancing payments on fakes', () => {
  let world: FakeWorld;
  beforeEach(() => {
    world = fakeWorld({ leaseMs: 30_000 });
    world.store.fund(TENANT, 'USDC', '100');
  });

  /** A new initiated payment of KES 1,500 (12.115416 USDC held). */
  const newPayment = async (reference = `order-${randomUUID()}`): Promise<string> => {
    const r = await createMoneyOut(world.moneyOut, TENANT, randomUUID(), command({ reference }));
    if (!r.ok) throw new Error(r.message);
    return r.value.payment.id;
  };
  const stored = (id: string): Payment => world.store.payments.get(id)!;
  const pass = () => processDuePayments(world.advance, 10);
  const balances = (tenant = TENANT) => Object.fromEntries((['available', 'held', 'in_transit', 'settled', 'refunded', 'funding'] as AccountKind[])
    .map((kind) => [kind, world.store.balance(tenant, 'USDC', kind)]));
  /** The payment's ledger transactions as `kind from→to amount`, in posting order. */
  const ledgerOf = (id: string) => world.store.transfers.filter((t) => t.paymentId === id).map((t) => `${t.kind} ${t.from}→${t.to} ${t.amount}`);
  const eventsOf = (id: string) => world.store.outbox.filter((e) => e.entityId === id).map((e) => e.type);

  it('claims only due payments, leases them until now + leaseMs and counts the attempt', async () => {
    const id = await newPayment();
    const claims: Array<[Date, number, Date]> = [];
    const queue = { claimDue: (now: Date, limit: number, until: Date) => (claims.push([now, limit, until]), world.store.queue.claimDue(now, limit, until)) };
    world.provider.onSubmit(id, { kind: 'retry', afterMs: 60_000 });
    expect(await processDuePayments({ ...world.advance, queue }, 7)).toBe(1);
    const now = world.clock.now();
    expect(claims).toEqual([[now, 7, new Date(now.getTime() + 30_000)]]);
    expect(stored(id).attempts).toBe(1);
    // Rescheduled a minute ahead: not due until then.
    world.clock.advance(59_999);
    expect(await pass()).toBe(0);
    world.clock.advance(1);
    expect(await pass()).toBe(1);
  });

  it('on acceptance: provider_accepted with its reference, payment.processing, and held → in_transit (send)', async () => {
    const id = await newPayment();
    world.provider.onSubmit(id, { kind: 'accepted', providerRef: 'prov-1' });
    world.clock.advance(10);
    await pass();
    const now = world.clock.now();
    expect(stored(id)).toMatchObject({ status: 'provider_accepted', providerRef: 'prov-1', acceptedAt: now, updatedAt: now, nextActionAt: now, failureReason: null });
    expect(eventsOf(id)).toEqual(['payment.initiated', 'payment.processing']);
    expect(world.store.outbox.at(-1)!.payload).toMatchObject({ id, status: 'provider_accepted', providerRef: 'prov-1', updatedAt: now.toISOString() });
    expect(ledgerOf(id)).toEqual([`hold available→held ${KES_1500_USDC}`, `send held→in_transit ${KES_1500_USDC}`]);
    expect(balances()).toEqual({
      available: '87.884584', held: '0.000000', in_transit: KES_1500_USDC, settled: '0.000000', refunded: '0.000000', funding: '-100.000000',
    });
    expect(world.moved.map((p) => [p.id, p.status])).toEqual([[id, 'provider_accepted']]);
  });

  it('on rejection: failed with the reason, no next action, and held → available (release)', async () => {
    const id = await newPayment();
    world.provider.onSubmit(id, { kind: 'rejected', reason: 'account closed', code: 'recipient_account_invalid' });
    await pass();
    expect(stored(id)).toMatchObject({
      status: 'failed', failureReason: 'account closed', failureCode: 'recipient_account_invalid', nextActionAt: null, providerRef: null, acceptedAt: null,
    });
    expect(eventsOf(id)).toEqual(['payment.initiated', 'payment.failed']);
    expect(ledgerOf(id)).toEqual([`hold available→held ${KES_1500_USDC}`, `release held→available ${KES_1500_USDC}`]);
    expect(balances()).toMatchObject({ available: '100.000000', held: '0.000000', in_transit: '0.000000', settled: '0.000000', refunded: '0.000000' });
  });

  it('on success: succeeded, no next action, and in_transit → settled (settle), nothing refunded', async () => {
    const id = await newPayment();
    await pass();
    world.clock.advance(5);
    await pass();
    expect(world.provider.calls).toEqual([{ call: 'submit', paymentId: id }, { call: 'status', paymentId: id }]);
    expect(stored(id)).toMatchObject({ status: 'succeeded', nextActionAt: null, failureReason: null, failureCode: null, providerRef: `ref_${id}` });
    expect(eventsOf(id)).toEqual(['payment.initiated', 'payment.processing', 'payment.succeeded']);
    expect(ledgerOf(id)).toEqual([
      `hold available→held ${KES_1500_USDC}`, `send held→in_transit ${KES_1500_USDC}`, `settle in_transit→settled ${KES_1500_USDC}`,
    ]);
    expect(balances()).toEqual({
      available: '87.884584', held: '0.000000', in_transit: '0.000000', settled: KES_1500_USDC, refunded: '0.000000', funding: '-100.000000',
    });
    // Final: never claimed again.
    world.clock.advance(24 * 3_600_000);
    expect(await pass()).toBe(0);
  });

  it.each([
    ['failed', 'fail', 'payment.failed'],
    ['refunded', 'refund', 'payment.refunded'],
  ] as const)('a failure after acceptance (%s) returns the funds: in_transit → refunded (return), never settled', async (kind, _move, event) => {
    const id = await newPayment();
    await pass();
    world.provider.onStatus(id, { kind, reason: 'recipient bank returned it', code: 'reversed' });
    await pass();
    expect(stored(id)).toMatchObject({ status: kind, failureReason: 'recipient bank returned it', failureCode: 'reversed', nextActionAt: null });
    expect(eventsOf(id)).toEqual(['payment.initiated', 'payment.processing', event]);
    expect(ledgerOf(id)).toEqual([
      `hold available→held ${KES_1500_USDC}`, `send held→in_transit ${KES_1500_USDC}`, `return in_transit→refunded ${KES_1500_USDC}`,
    ]);
    expect(balances()).toEqual({
      available: '87.884584', held: '0.000000', in_transit: '0.000000', settled: '0.000000', refunded: KES_1500_USDC, funding: '-100.000000',
    });
  });

  it.each([
    ['submit retry', (w: FakeWorld, id: string) => w.provider.onSubmit(id, { kind: 'retry', afterMs: 1234 }), 'initiated', 1234],
    ['submit retry with a negative wait', (w: FakeWorld, id: string) => w.provider.onSubmit(id, { kind: 'retry', afterMs: -50 }), 'initiated', 0],
    ['submit unknown', (w: FakeWorld, id: string) => w.provider.onSubmit(id, { kind: 'unknown', reason: 'timeout' }), 'initiated', 5000],
    ['submit fault (attempt 1)', (w: FakeWorld, id: string) => w.provider.onSubmit(id, { throws: new Error('ECONNRESET') }), 'initiated', 2000],
  ] as const)('%s reschedules without a move', async (_name, script, status, waitMs) => {
    const id = await newPayment();
    script(world, id);
    await pass();
    expect(stored(id)).toMatchObject({ status, nextActionAt: new Date(world.clock.now().getTime() + waitMs), failureReason: null });
    expect(ledgerOf(id)).toHaveLength(1);
    expect(eventsOf(id)).toEqual(['payment.initiated']);
    expect(world.moved).toEqual([]);
  });

  it.each([
    ['status pending', { kind: 'pending', afterMs: 4321 }, 4321],
    ['status not_found', { kind: 'not_found' }, 5000],
    ['status fault', { throws: new Error('503') }, 4000],
  ] as const)('%s leaves an accepted payment in place and looks again later', async (_name, answer, waitMs) => {
    const id = await newPayment();
    await pass();
    world.provider.onStatus(id, answer);
    await pass();
    expect(stored(id)).toMatchObject({ status: 'provider_accepted', attempts: 2, nextActionAt: new Date(world.clock.now().getTime() + waitMs) });
    expect(ledgerOf(id)).toHaveLength(2);
  });

  it.each([[3, 16_000], [7, 256_000], [8, 300_000], [30, 300_000]])(
    'backs off exponentially after faults: claimed with %i earlier attempts, it waits %i ms', async (earlier, waitMs) => {
      const id = await newPayment();
      world.store.seedPayment({ ...stored(id), attempts: earlier });
      world.provider.onSubmit(id, { throws: new Error('boom') });
      await pass();
      expect(stored(id).nextActionAt).toEqual(new Date(world.clock.now().getTime() + waitMs));
    });

  it('never hands a payment to a provider that does not serve its tenant: it waits, reported', async () => {
    const id = await newPayment();
    world.routing.add(TENANT, 'live');
    const unrouted: Array<[string, string]> = [];
    await processDuePayments({ ...world.advance, onUnrouted: (p, reason) => unrouted.push([p.id, reason]) }, 10);
    expect(unrouted).toEqual([[id, 'no live rails']]);
    expect(world.provider.calls).toEqual([]);
    expect(stored(id)).toMatchObject({ status: 'initiated', nextActionAt: new Date(world.clock.now().getTime() + UNROUTED_RECHECK_MS) });
  });

  describe('applyMove', () => {
    it('returns not_found for an unknown payment', async () => {
      expect(await applyMove(world.advance, 'pay_missing', 'accept', {})).toEqual(err('not_found', 'payment pay_missing not found'));
    });

    it('accept without a reference records none', async () => {
      const id = await newPayment();
      const r = await applyMove(world.advance, id, 'accept', {});
      expect(r.ok && [r.value.status, r.value.providerRef, r.value.failureReason]).toEqual(['provider_accepted', null, null]);
    });

    it('a move into failed or refunded records a failure code, unknown when none is given; the other moves record none', async () => {
      const rejected = await newPayment();
      const r = await applyMove(world.advance, rejected, 'reject', {});
      expect(r.ok && [r.value.status, r.value.failureReason, r.value.failureCode]).toEqual(['failed', null, 'unknown']);
      expect(world.store.outbox.at(-1)!.payload).toMatchObject({ status: 'failed', failureReason: null, failureCode: 'unknown' });

      const refunded = await newPayment();
      await applyMove(world.advance, refunded, 'accept', { providerRef: 'p', failure: { reason: 'ignored', code: 'declined' } });
      expect(stored(refunded)).toMatchObject({ status: 'provider_accepted', failureReason: null, failureCode: null });
      await applyMove(world.advance, refunded, 'refund', { failure: { reason: 'came back', code: 'reversed' } });
      expect(stored(refunded)).toMatchObject({ status: 'refunded', failureReason: 'came back', failureCode: 'reversed' });
      expect(world.store.outbox.at(-1)!.payload).toMatchObject({ status: 'refunded', failureReason: 'came back', failureCode: 'reversed' });
    });

    it('applies duplicated and reordered provider results once: exactly the moves the state table allows, in order', async () => {
      const id = await newPayment();
      const sequence: PaymentMove[] = ['complete', 'accept', 'accept', 'reject', 'refund', 'complete', 'fail', 'accept', 'refund'];
      const results: string[] = [];
      for (const move of sequence) {
        const r = await applyMove(world.advance, id, move, { providerRef: 'dup', failure: { reason: `by ${move}`, code: 'reversed' } });
        results.push(r.ok ? `${move}: ${r.value.status}` : `${move}: ${r.code}`);
      }
      expect(results).toEqual([
        'complete: invalid_transition', 'accept: provider_accepted', 'accept: invalid_transition', 'reject: invalid_transition',
        'refund: refunded', 'complete: invalid_transition', 'fail: invalid_transition', 'accept: invalid_transition', 'refund: invalid_transition',
      ]);
      expect(stored(id)).toMatchObject({ status: 'refunded', failureReason: 'by refund', failureCode: 'reversed', nextActionAt: null });
      expect(ledgerOf(id)).toEqual([
        `hold available→held ${KES_1500_USDC}`, `send held→in_transit ${KES_1500_USDC}`, `return in_transit→refunded ${KES_1500_USDC}`,
      ]);
      expect(eventsOf(id)).toEqual(['payment.initiated', 'payment.processing', 'payment.refunded']);
      expect(world.moved.map((p) => p.status)).toEqual(['provider_accepted', 'refunded']);
    });

    it('of two concurrent identical results, exactly one applies', async () => {
      const id = await newPayment();
      const results = await Promise.all([1, 2, 3].map(() => applyMove(world.advance, id, 'accept', { providerRef: 'p' })));
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(results.filter((r) => !r.ok).map((r) => !r.ok && r.message)).toEqual(['the payment moved concurrently', 'the payment moved concurrently']);
      expect(ledgerOf(id)).toHaveLength(2);
      expect(eventsOf(id)).toEqual(['payment.initiated', 'payment.processing']);
    });

    it('with the payment its caller holds it reads nothing, and the event carries the payment as written', async () => {
      const id = await newPayment();
      const held = stored(id);
      let reads = 0;
      const payments = { ...world.advance.payments, findById: async (pid: string) => (reads++, world.advance.payments.findById(pid)) };
      world.clock.advance(5);
      const r = await applyMove({ ...world.advance, payments }, id, 'accept', { providerRef: 'prov-9' }, held);
      expect(r.ok && r.value.status).toBe('provider_accepted');
      expect(reads).toBe(0);
      expect(world.store.outbox.at(-1)!.payload).toEqual(toPaymentView(stored(id)));
    });

    it('a move that leaves the payment movable sets its next look nextLookAfterMs ahead; a refused one reports no move', async () => {
      const id = await newPayment();
      const r = await applyMove(world.advance, id, 'accept', { providerRef: 'p', nextLookAfterMs: 5_000 });
      expect(r.ok && r.value.nextActionAt).toEqual(new Date(world.clock.now().getTime() + 5_000));
      expect(await applyMove(world.advance, id, 'accept', {})).toMatchObject({ ok: false });
      expect(world.moved.map((p) => p.status)).toEqual(['provider_accepted']);
    });

    it('with a held payment that has moved since, it writes nothing: invalid_transition', async () => {
      const id = await newPayment();
      const held = stored(id);
      expect((await applyMove(world.advance, id, 'accept', { providerRef: 'first' })).ok).toBe(true);
      const r = await applyMove(world.advance, id, 'reject', { failure: { reason: 'late', code: 'declined' } }, held);
      expect(r).toEqual(err('invalid_transition', 'the payment moved concurrently'));
      // Only the first move is reported moved.
      expect(world.moved.map((p) => p?.status)).toStrictEqual(['provider_accepted']);
      expect(stored(id)).toMatchObject({ status: 'provider_accepted', providerRef: 'first', failureReason: null, failureCode: null });
      expect(eventsOf(id)).toEqual(['payment.initiated', 'payment.processing']);
      expect(ledgerOf(id)).toEqual([`hold available→held ${KES_1500_USDC}`, `send held→in_transit ${KES_1500_USDC}`]);
    });

    it('rolls the move back when the ledger refuses its transfer', async () => {
      const id = await newPayment();
      // The move's transfer already posted (the ledger's unique payment and kind): the state must not move alone.
      await world.store.transact(async (tx) => {
        await tx.ledger.post({ tenantId: TENANT, currency: 'USDC', from: 'held', to: 'in_transit', kind: 'send', amount: '0.000001', paymentId: id, at: world.clock.now() });
        return { ok: true, value: undefined };
      });
      const r = await applyMove(world.advance, id, 'accept', { providerRef: 'p' });
      expect(r).toEqual(err('invalid_transition', `ledger refused accept for ${id}: duplicate`));
      expect(stored(id).status).toBe('initiated');
      expect(eventsOf(id)).toEqual(['payment.initiated']);
      expect(world.moved).toEqual([]);
    });
  });
});
