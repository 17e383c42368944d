import { PAYMENT_STATUSES } from '../../src/core/payments/payment';
import { isFinal, MOVABLE_STATUSES, movableStatuses, PAYMENT_MOVES, type MoveRule } from '../../src/core/payments/payment-state';

describe('movable and final statuses, derived from the state table', () => {
  it('the movable statuses are exactly those some move starts from; every other status is final', () => {
    const starts = Object.values(PAYMENT_MOVES).map((rule) => rule.from);
    expect([...MOVABLE_STATUSES]).toEqual(PAYMENT_STATUSES.filter((s) => starts.includes(s)));
    expect([...MOVABLE_STATUSES]).toEqual(['initiated', 'provider_accepted']);
    for (const status of PAYMENT_STATUSES) expect(isFinal(status)).toBe(!starts.includes(status));
  });

  it('follows the table it is given: a move added from a final status makes that status movable', () => {
    const moves: Record<string, MoveRule> = { ...PAYMENT_MOVES, reopen: { from: 'refunded', to: 'initiated', event: 'payment.initiated' } };
    expect(movableStatuses(moves)).toEqual(['initiated', 'provider_accepted', 'refunded']);
    expect(movableStatuses({})).toEqual([]);
  });
});
