import { err, ok, type Result } from '../shared/result';
import type { PaymentEventType } from '../events/outbox-event';
import { PAYMENT_STATUSES, type PaymentStatus } from './payment';

/** Moves a payment can make after creation (docs/decisions.md § Payments: states and events). */
export type PaymentMove = 'accept' | 'reject' | 'complete' | 'fail' | 'refund';

/** One allowed move: the only state it starts from, where it lands, and the event it emits. */
export interface MoveRule {
  readonly from: PaymentStatus;
  readonly to: PaymentStatus;
  readonly event: PaymentEventType;
}

/** The state machine as data (the table of docs/decisions.md § Payments: states and events). */
export const PAYMENT_MOVES: Readonly<Record<PaymentMove, MoveRule>> = {
  accept: { from: 'initiated', to: 'provider_accepted', event: 'payment.processing' },
  reject: { from: 'initiated', to: 'failed', event: 'payment.failed' },
  complete: { from: 'provider_accepted', to: 'succeeded', event: 'payment.succeeded' },
  fail: { from: 'provider_accepted', to: 'failed', event: 'payment.failed' },
  refund: { from: 'provider_accepted', to: 'refunded', event: 'payment.refunded' },
};

/**
 * The one transition function: where `move` takes a payment in state `from`, and the event it
 * emits. Errors: `invalid_transition` when the move does not start from `from` (a provider result
 * for a state already passed, which callers ignore).
 */
export function transition(from: PaymentStatus, move: PaymentMove): Result<MoveRule, 'invalid_transition'> {
  const rule = PAYMENT_MOVES[move];
  return rule.from === from ? ok(rule) : err('invalid_transition', `cannot ${move} a payment that is ${from}`);
}

/**
 * The statuses some move starts from, in PAYMENT_STATUSES order, derived from `moves`: a payment in
 * one of them still has work ahead, so the payout worker's queue holds it. Pure.
 */
export function movableStatuses(moves: Readonly<Record<string, MoveRule>> = PAYMENT_MOVES): PaymentStatus[] {
  const starts = new Set(Object.values(moves).map((rule) => rule.from));
  return PAYMENT_STATUSES.filter((status) => starts.has(status));
}

/** The non-final statuses of the state table (docs/decisions.md § Payments: states and events). */
export const MOVABLE_STATUSES: readonly PaymentStatus[] = movableStatuses();

/** True once no further move is possible: no move of the state table starts from `status`. Pure. */
export function isFinal(status: PaymentStatus): boolean {
  return !MOVABLE_STATUSES.includes(status);
}
