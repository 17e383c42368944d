import type { Clock, IdGenerator } from '../shared/clock';
import { err, ok, type Result } from '../shared/result';
import type { UnitOfWork } from '../shared/unit-of-work';
import type { Payment, PaymentStatus } from './payment';
import type { PaymentPatch, PaymentQueue, PaymentReader } from './payment-ports';
import { isFinal, transition, type PaymentMove } from './payment-state';
import { patchedView } from './payment-view';
import { LEDGER_MOVES, LIVE_RETURN_MOVE } from '../ledger/ledger';
import { refundOf } from '../refunds/onchain-refund';
import { refundEvent } from '../refunds/refund-events';
import type { SubmitOutcome, UnknownStatusFindings } from './payout-provider';
import type { PaymentFailure } from './payment-failure';
import type { RoutingDeps } from '../routing/provider-routing';
import type { RouteScoringDeps } from '../routing/route-ranking';

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
  /** Called after each submit call with the provider's name and its outcome, e.g. to log failovers and unknown outcomes. */
  readonly onSubmitted?: (payment: Payment, provider: string, outcome: SubmitOutcome) => void;
  /** Where a status answer or callback the provider's adapter does not map is recorded for operators. */
  readonly unknownStatuses: UnknownStatusFindings;
  /**
   * Routing on measured success (docs/decisions.md § Payout providers: routing on measured
   * success): the outcome window, the decision log and the scoring settings. Without it, the
   * route's order is used as it is and nothing is counted.
   */
  readonly scoring?: RouteScoringDeps;
}

/** Details a move records: the provider's reference on acceptance, why on failure or refund (its reason and code). */
export interface MoveDetails {
  readonly providerRef?: string;
  /**
   * Why the payment failed or was refunded, for a move that lands there: recorded as
   * `failureReason` and `failureCode`. Without it such a move records the code `unknown`.
   */
  readonly failure?: PaymentFailure;
  /** When the payment stays movable: how long until the worker looks at it, in milliseconds (default 0). */
  readonly nextLookAfterMs?: number;
}

/** Moves a payment's next look `afterMs` milliseconds ahead, while it is still in its status. */
export async function reschedule(deps: Pick<AdvanceDeps, 'uow' | 'clock'>, payment: Payment, afterMs: number): Promise<void> {
  const at = new Date(deps.clock.now().getTime() + Math.max(0, afterMs));
  await patchPayment(deps, payment, { nextActionAt: at });
}

/**
 * Writes `patch` in a transaction of its own, committed when this resolves, only while the payment
 * is still in its status. Returns the payment as written, or undefined when it moved meanwhile.
 */
export async function patchPayment(deps: Pick<AdvanceDeps, 'uow'>, payment: Payment, patch: PaymentPatch): Promise<Payment | undefined> {
  const written = await deps.uow.transact<Payment | undefined, never>(async (tx) => ok(await tx.payments.update(payment.id, payment.status, patch)));
  return written.ok ? written.value : undefined;
}

/**
 * Applies one provider result to a payment (docs/decisions.md § Payments: states and events): moves it through `transition()`, and in
 * one transaction writes the new state, its outbox event and its ledger transfer (docs/decisions.md § Ledger), through one
 * status-guarded write (PaymentStore.move). Results for a state already passed are ignored, so a result delivered twice or
 * out of order is applied at most once.
 * A live tenant's failure or refund after acceptance also writes a pending onchain refund, and its
 * amount waits in `refund_pending` until an operator records the refund's transaction; a sandbox
 * tenant's returns to `refunded` at once (docs/decisions.md § Ledger).
 * `known` is the payment as the caller has just read or written it (the worker's claim, its
 * submission marker, a callback's lookup): it saves a read. It may be stale: the write applies only
 * while the payment is still in `known.status`, and a payment's view changes only with its status,
 * which never returns to an earlier one, so the event's payload is the row as written.
 * Used by the payout worker (with what the provider answered), provider callbacks and the admin simulation.
 * Errors: `not_found`; `invalid_transition` (the payment is not in the move's starting state).
 */
export async function applyMove(
  deps: Pick<AdvanceDeps, 'uow' | 'payments' | 'clock' | 'ids' | 'onPaymentMoved' | 'environments'>,
  paymentId: string,
  move: PaymentMove,
  details: MoveDetails,
  known?: Payment,
): Promise<Result<Payment, 'not_found' | 'invalid_transition'>> {
  const current = known?.id === paymentId ? known : await deps.payments.findById(paymentId);
  if (!current) return err('not_found', `payment ${paymentId} not found`);
  const rule = transition(current.status, move);
  if (!rule.ok) return rule;
  const onchainRefund = LEDGER_MOVES[move].to === 'refunded' && (await deps.environments.environmentOf(current.tenantId)) === 'live';
  const now = deps.clock.now();
  const patch: PaymentPatch = {
    status: rule.value.to,
    updatedAt: now,
    nextActionAt: isFinal(rule.value.to) ? null : new Date(now.getTime() + (details.nextLookAfterMs ?? 0)),
    ...(move === 'accept' ? { acceptedAt: now, providerRef: details.providerRef ?? null } : {}),
    ...failurePatch(rule.value.to, details.failure),
  };
  const moved = await deps.uow.transact<Payment, 'invalid_transition'>(async (tx) => {
    const written = await tx.payments.move({
      paymentId, from: rule.value.from, patch,
      event: { id: deps.ids.uuid(), tenantId: current.tenantId, type: rule.value.event, entityId: paymentId, payload: { ...patchedView(current, patch) }, createdAt: now },
      transfer: {
        tenantId: current.tenantId, currency: current.sourceCurrency, amount: current.amountStablecoin,
        ...(onchainRefund ? LIVE_RETURN_MOVE : LEDGER_MOVES[move]), paymentId, at: now,
      },
    });
    if (written === 'moved_concurrently') return err('invalid_transition', 'the payment moved concurrently');
    // The status guard already makes a move apply once; the ledger's unique (payment, kind) backs it.
    if (written === 'ledger_refused') return err('invalid_transition', `ledger refused ${move} for ${paymentId}: duplicate`);
    if (onchainRefund) {
      const refund = refundOf(written, deps.ids.next('rfd'), now);
      await tx.refunds.create(refund);
      // refund.pending in the same transaction as the refund (docs/decisions.md § Refunds).
      await tx.outbox.append(refundEvent(refund, deps.ids.uuid(), now)!);
    }
    return ok(written);
  });
  if (moved.ok) deps.onPaymentMoved?.(moved.value);
  return moved;
}

/**
 * What a move landing in `to` records about why (docs/api.md § Failure codes): a failed or refunded
 * payment always carries a failure code, `unknown` when the caller gave none, and the reason when
 * it gave one; any other status records nothing here. Pure.
 */
function failurePatch(to: PaymentStatus, failure: PaymentFailure | undefined): PaymentPatch {
  if (to !== 'failed' && to !== 'refunded') return {};
  return failure ? { failureReason: failure.reason, failureCode: failure.code } : { failureCode: 'unknown' };
}
