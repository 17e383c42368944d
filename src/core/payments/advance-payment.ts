import type { Clock, IdGenerator } from '../shared/clock';
import { err, ok, type Result } from '../shared/result';
import type { UnitOfWork } from '../shared/unit-of-work';
import type { Payment } from './payment';
import type { PaymentQueue, PaymentReader } from './payment-ports';
import { isFinal, transition, type PaymentMove } from './payment-state';
import { toPaymentView } from './payment-view';
import { LEDGER_MOVES, LIVE_RETURN_MOVE } from '../ledger/ledger';
import { refundOf } from '../refunds/onchain-refund';
import type { StatusOutcome, SubmitOutcome } from './payout-provider';
import { payoutRoute, UNROUTED_RECHECK_MS, type RoutingDeps } from '../routing/provider-routing';

/** Ports and settings of the payout worker and of provider results; routing picks each payment's provider. */
export interface AdvanceDeps extends RoutingDeps {
  readonly uow: UnitOfWork;
  readonly queue: PaymentQueue;
  readonly payments: PaymentReader;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** How long a claimed payment stays leased to one worker, in milliseconds. */
  readonly leaseMs: number;
  /** Called after a move commits, with the payment as it now is. */
  readonly onPaymentMoved?: (payment: Payment) => void;
  /** Called when no provider serves a due payment (it is left as it is and looked at again later), e.g. to log it. */
  readonly onUnrouted?: (payment: Payment, reason: string) => void;
}

/** Details a move records: the provider's reference on acceptance, a reason on failure or refund. */
export interface MoveDetails {
  readonly providerRef?: string;
  readonly failureReason?: string;
}

const MAX_BACKOFF_MS = 5 * 60_000;

/**
 * One pass of the payout worker (docs/decisions.md § Payments: states and events): claims up to `limit` due payments and advances each
 * through the provider. Returns how many were claimed. Never throws for one payment's provider
 * fault: that payment is rescheduled with exponential back-off.
 */
export async function processDuePayments(deps: AdvanceDeps, limit: number): Promise<number> {
  const now = deps.clock.now();
  const claimed = await deps.queue.claimDue(now, limit, new Date(now.getTime() + deps.leaseMs));
  await Promise.all(claimed.map((payment) => advancePayment(deps, payment)));
  return claimed.length;
}

async function advancePayment(deps: AdvanceDeps, payment: Payment): Promise<void> {
  try {
    const route = await payoutRoute(deps, payment.tenantId, payment);
    if (route.kind === 'unavailable') {
      // Never handed to a provider that does not serve its tenant (a live tenant's payment to the
      // sandbox): it stays in its state, reported, until a provider serves it (docs/decisions.md § Sandbox values).
      deps.onUnrouted?.(payment, route.reason);
      return await reschedule(deps, payment, UNROUTED_RECHECK_MS);
    }
    if (payment.status === 'initiated') {
      await applySubmit(deps, payment, await route.providers[0].submit(payment));
    } else if (payment.status === 'provider_accepted') {
      await applyStatus(deps, payment, await route.providers[0].status(payment));
    }
  } catch {
    const backoff = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.min(payment.attempts, 16));
    await reschedule(deps, payment, backoff);
  }
}

/** How soon an unknown submission or an unexpected `not_found` is looked at again, in milliseconds. */
const UNSETTLED_RECHECK_MS = 5_000;

async function applySubmit(deps: AdvanceDeps, payment: Payment, outcome: SubmitOutcome): Promise<void> {
  switch (outcome.kind) {
    case 'retry':
      return reschedule(deps, payment, outcome.afterMs);
    // Only the sandbox serves payments today, and it always answers; real rails resolve an unknown
    // submission with a status query before any resubmission.
    case 'unknown':
      return reschedule(deps, payment, UNSETTLED_RECHECK_MS);
    case 'accepted':
      await applyMove(deps, payment.id, 'accept', { providerRef: outcome.providerRef });
      return;
    case 'rejected':
      await applyMove(deps, payment.id, 'reject', { failureReason: outcome.reason });
  }
}

async function applyStatus(deps: AdvanceDeps, payment: Payment, outcome: StatusOutcome): Promise<void> {
  switch (outcome.kind) {
    case 'pending':
      return reschedule(deps, payment, outcome.afterMs);
    // An accepted payout the provider does not know is an anomaly for reconciliation, never a move.
    case 'not_found':
      return reschedule(deps, payment, UNSETTLED_RECHECK_MS);
    case 'succeeded':
      await applyMove(deps, payment.id, 'complete', {});
      return;
    case 'failed':
    case 'refunded':
      await applyMove(deps, payment.id, outcome.kind === 'failed' ? 'fail' : 'refund', { failureReason: outcome.reason });
  }
}

async function reschedule(deps: AdvanceDeps, payment: Payment, afterMs: number): Promise<void> {
  const at = new Date(deps.clock.now().getTime() + Math.max(0, afterMs));
  await deps.uow.transact(async (tx) => {
    await tx.payments.update(payment.id, payment.status, { nextActionAt: at });
    return ok(undefined);
  });
}

/**
 * Applies one provider result to a payment (docs/decisions.md § Payments: states and events): moves it through `transition()`, and in
 * one transaction writes the new state, its outbox event and its ledger transfer (docs/decisions.md § Ledger). Results for a state already passed
 * are ignored, so a result delivered twice or out of order is applied at most once.
 * A live tenant's failure or refund after acceptance also writes a pending onchain refund, and its
 * amount waits in `refund_pending` until an operator records the refund's transaction; a sandbox
 * tenant's returns to `refunded` at once (docs/decisions.md § Ledger).
 * Used by the payout worker (with what the provider answered) and by the admin simulation.
 * Errors: `not_found`; `invalid_transition` (the payment is not in the move's starting state).
 */
export async function applyMove(
  deps: Pick<AdvanceDeps, 'uow' | 'payments' | 'clock' | 'ids' | 'onPaymentMoved' | 'environments'>,
  paymentId: string,
  move: PaymentMove,
  details: MoveDetails,
): Promise<Result<Payment, 'not_found' | 'invalid_transition'>> {
  const current = await deps.payments.findById(paymentId);
  if (!current) return err('not_found', `payment ${paymentId} not found`);
  const rule = transition(current.status, move);
  if (!rule.ok) return rule;
  const returnsFunds = LEDGER_MOVES[move].to === 'refunded';
  const onchainRefund = returnsFunds && (await deps.environments.environmentOf(current.tenantId)) === 'live';
  const now = deps.clock.now();
  const moved = await deps.uow.transact<Payment, 'invalid_transition'>(async (tx) => {
    const updated = await tx.payments.update(paymentId, rule.value.from, {
      status: rule.value.to,
      updatedAt: now,
      nextActionAt: isFinal(rule.value.to) ? null : now,
      ...(move === 'accept' ? { acceptedAt: now, providerRef: details.providerRef ?? null } : {}),
      ...(details.failureReason !== undefined ? { failureReason: details.failureReason } : {}),
    });
    if (!updated) return err('invalid_transition', 'the payment moved concurrently');
    await tx.outbox.append({
      id: deps.ids.uuid(), tenantId: updated.tenantId, type: rule.value.event, entityId: updated.id,
      payload: { ...toPaymentView(updated) }, createdAt: now,
    });
    if (onchainRefund) await tx.refunds.create(refundOf(updated, deps.ids.next('rfd'), now));
    const posted = await tx.ledger.post({
      tenantId: updated.tenantId, currency: updated.sourceCurrency, amount: updated.amountStablecoin,
      ...(onchainRefund ? LIVE_RETURN_MOVE : LEDGER_MOVES[move]), paymentId: updated.id, at: now,
    });
    // The status guard above already makes a move apply once; the ledger's unique (payment, kind) backs it.
    if (posted !== 'posted') return err('invalid_transition', `ledger refused ${move} for ${paymentId}: ${posted}`);
    return ok(updated);
  });
  if (moved.ok) deps.onPaymentMoved?.(moved.value);
  return moved;
}
