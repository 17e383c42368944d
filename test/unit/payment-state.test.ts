import { PAYMENT_STATUSES, type PaymentStatus } from '../../src/core/payments/payment';
import { isFinal, PAYMENT_MOVES, transition, type PaymentMove } from '../../src/core/payments/payment-state';

/**
 * The table of docs/decisions.md § Payments: states and events, written out independently of the implementation's table: the only allowed
 * (state, move) pairs, where each lands and the event it emits. Everything else is refused.
 */
const EXPECTED: Record<string, { to: PaymentStatus; event: string }> = {
  'initiated/accept': { to: 'provider_accepted', event: 'payment.processing' },
  'initiated/reject': { to: 'failed', event: 'payment.failed' },
  'provider_accepted/complete': { to: 'succeeded', event: 'payment.succeeded' },
  'provider_accepted/fail': { to: 'failed', event: 'payment.failed' },
  'provider_accepted/refund': { to: 'refunded', event: 'payment.refunded' },
};

const MOVES = Object.keys(PAYMENT_MOVES) as PaymentMove[];
const PAIRS = PAYMENT_STATUSES.flatMap((from) => MOVES.map((move) => [from, move] as const));

describe('payment states and moves', () => {
  it('has exactly the five payment states, in order', () => {
    expect([...PAYMENT_STATUSES]).toEqual(['initiated', 'provider_accepted', 'succeeded', 'failed', 'refunded']);
  });

  it('has exactly the five moves of the payment state table', () => {
    expect(MOVES.sort()).toEqual(['accept', 'complete', 'fail', 'refund', 'reject']);
  });

  it('covers all 25 (state, move) pairs, 5 of them allowed', () => {
    expect(PAIRS).toHaveLength(25);
    expect(PAIRS.filter(([from, move]) => transition(from, move).ok)).toHaveLength(5);
  });
});

describe('transition() over every (state, move) pair', () => {
  it.each(PAIRS)('%s --%s-->', (from, move) => {
    const expected = EXPECTED[`${from}/${move}`];
    const result = transition(from, move);
    if (expected) {
      expect(result).toEqual({ ok: true, value: { from, to: expected.to, event: expected.event } });
    } else {
      expect(result).toEqual({ ok: false, code: 'invalid_transition', message: `cannot ${move} a payment that is ${from}` });
    }
  });
});

describe('state machine properties', () => {
  it.each(PAYMENT_STATUSES.map((s) => [s]))('%s is final exactly when no move starts from it', (status) => {
    const moves = MOVES.filter((m) => transition(status, m).ok);
    expect(isFinal(status)).toBe(moves.length === 0);
    expect(isFinal(status)).toBe(['succeeded', 'failed', 'refunded'].includes(status));
  });

  it.each(MOVES.map((m) => [m]))('%s applied a second time (a duplicated provider result) is refused', (move) => {
    const first = transition(PAYMENT_MOVES[move].from, move);
    expect(first.ok).toBe(true);
    if (!first.ok) return;
    expect(transition(first.value.to, move)).toMatchObject({ ok: false, code: 'invalid_transition' });
  });

  it('never moves back to initiated and every target is a known state', () => {
    for (const move of MOVES) {
      expect(PAYMENT_MOVES[move].to).not.toBe('initiated');
      expect(PAYMENT_STATUSES).toContain(PAYMENT_MOVES[move].to);
      expect(PAYMENT_STATUSES).toContain(PAYMENT_MOVES[move].from);
    }
  });

  it('a late result for a state already passed is refused (out-of-order delivery)', () => {
    // accept arriving after the payment already succeeded, failed or was refunded
    for (const done of ['succeeded', 'failed', 'refunded'] as const) {
      expect(transition(done, 'accept')).toMatchObject({ ok: false, code: 'invalid_transition' });
    }
    // a provider result arriving before acceptance
    for (const move of ['complete', 'fail', 'refund'] as const) {
      expect(transition('initiated', move)).toMatchObject({ ok: false, code: 'invalid_transition' });
    }
  });

  it('emits no webhook event type outside the documented ones and payment.initiated is never a move event', () => {
    const events = new Set(MOVES.map((m) => PAYMENT_MOVES[m].event));
    expect([...events].sort()).toEqual(['payment.failed', 'payment.processing', 'payment.refunded', 'payment.succeeded']);
  });
});
