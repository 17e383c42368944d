import type { Payment } from './payment';
import type { PaymentMove } from './payment-state';
import { providerWord, type PayoutProvider, type StatusOutcome } from './payout-provider';
import type { ProviderReport } from './provider-report';
import { failureOf } from './payment-failure';
import { applyMove, patchPayment, reschedule, type AdvanceDeps } from './payment-moves';
import { namedPayoutProvider, payoutRoute, UNROUTED_RECHECK_MS } from '../routing/provider-routing';
import { countOutcome, rankRoute, type CountedOutcome } from '../routing/route-ranking';

export { applyMove, type AdvanceDeps, type MoveDetails } from './payment-moves';

const MAX_BACKOFF_MS = 5 * 60_000;
/** How soon an unknown submission or an unexpected `not_found` is looked at again, in milliseconds. */
const UNSETTLED_RECHECK_MS = 5_000;

/**
 * One pass of the payout worker (docs/decisions.md § Payments: states and events): claims up to `limit` due payments and advances each
 * through its provider. Returns how many were claimed. Never throws for one payment's provider
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
    if (payment.status === 'initiated' && payment.submittedAt === null) return await submitWithFailover(deps, payment);
    // Handed to a provider (a submission under way or accepted): only that provider is asked, by a
    // status query, never a second submission (docs/decisions.md § Payout providers: never pay twice).
    const provider = await providerOf(deps, payment);
    if (!provider) {
      deps.onUnrouted?.(payment, `its payout provider ${payment.provider ?? '(none)'} is not configured`);
      return await reschedule(deps, payment, UNROUTED_RECHECK_MS);
    }
    await applyOutcome(deps, payment, provider.name, await provider.status(payment));
  } catch {
    // A submit that threw may have been sent: its marker stays, so the next look is a status query.
    const backoff = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.min(payment.attempts, 16));
    await reschedule(deps, payment, backoff);
  }
}

/** The provider that has the payment: its recorded one, else (a sandbox payment from before providers were recorded) its route's first. */
async function providerOf(deps: AdvanceDeps, payment: Payment): Promise<PayoutProvider | undefined> {
  if (payment.provider) return namedPayoutProvider(deps, payment.tenantId, payment.provider);
  const route = await payoutRoute(deps, payment.tenantId, payment);
  return route.kind === 'providers' ? route.providers[0] : undefined;
}

/**
 * Submits a payment no provider has (docs/decisions.md § Payout providers: routing and failover):
 * the routed providers in the order routing decides (the table's, or ranked on measured success,
 * § Payout providers: routing on measured success), each after a durable submission marker naming it. `retry` (the
 * provider certainly did not take it, or its circuit is open) clears the marker and moves to the
 * next provider; `unknown` keeps the marker and stops: the next look is a status query at that same
 * provider; `accepted` and `rejected` are applied. When every provider said `retry`, it waits for
 * the shortest of their delays.
 */
async function submitWithFailover(deps: AdvanceDeps, payment: Payment): Promise<void> {
  const route = await payoutRoute(deps, payment.tenantId, payment);
  if (route.kind !== 'providers') {
    // Never handed to a provider that does not serve its tenant (a live tenant's payment to the
    // sandbox): it stays in its state, reported, until a provider serves it (docs/decisions.md § Sandbox values).
    deps.onUnrouted?.(payment, route.reason);
    return reschedule(deps, payment, (route.kind === 'unavailable' ? route.retryAfterMs : undefined) ?? UNROUTED_RECHECK_MS);
  }
  const providers = await rankRoute(deps.scoring, deps.clock, payment.id, payment, route);
  let waitMs: number | undefined;
  let current = payment;
  for (const [index, provider] of providers.entries()) {
    const marked = await patchPayment(deps, current, { provider: provider.name, submittedAt: deps.clock.now() });
    if (!marked) return;
    const started = deps.scoring?.nowMs();
    const outcome = await provider.submit(marked);
    const latencyMs = started === undefined || outcome.kind === 'retry' ? undefined : deps.scoring!.nowMs() - started;
    deps.onSubmitted?.(marked, provider.name, outcome);
    switch (outcome.kind) {
      case 'accepted':
        await countOutcome(deps.scoring, deps.clock.now(), provider.name, payment, undefined, latencyMs);
        await applyMove(deps, payment.id, 'accept', { providerRef: outcome.providerRef, nextLookAfterMs: outcome.recheckAfterMs }, marked);
        return;
      case 'rejected': {
        const moved = await applyMove(deps, payment.id, 'reject', { failure: failureOf(outcome) }, marked);
        if (moved.ok) await countOutcome(deps.scoring, deps.clock.now(), provider.name, payment, { kind: 'failed', code: outcome.code }, latencyMs);
        return;
      }
      case 'unknown':
        // Unanswered counts against the provider; whatever its status query finds later counts too.
        await countOutcome(deps.scoring, deps.clock.now(), provider.name, payment, { kind: 'unanswered' }, latencyMs);
        return reschedule(deps, marked, UNSETTLED_RECHECK_MS);
      case 'retry': {
        // Certainly not taken (refused before processing, or our own open circuit): not counted.
        waitMs = Math.min(waitMs ?? outcome.afterMs, outcome.afterMs);
        // After the last provider, the marker is cleared and the next look set in one write.
        const last = index === providers.length - 1;
        const at = new Date(deps.clock.now().getTime() + Math.max(0, waitMs));
        const cleared = await patchPayment(deps, marked, last ? { submittedAt: null, nextActionAt: at } : { submittedAt: null });
        if (!cleared || last) return;
        current = cleared;
      }
    }
  }
}

/**
 * Applies what a payment's own provider (`providerName`) says about it, from a status query or a
 * callback (docs/decisions.md § Payments: states and events, § Payout providers: never pay twice).
 * A `pending` with a status the adapter does not map is first recorded as a reconciliation finding
 * (§ Reconciliation), then treated as any `pending`. For a payment still `initiated` (a submission
 * whose outcome was unknown), evidence that the provider has it (a reference, success, refund)
 * first accepts it; its failure rejects it (nothing left); `not_found` clears the marker and
 * submits again; `pending` without a reference waits. For an accepted payment the outcome moves it
 * on. Each move applies at most once (applyMove).
 */
async function applyOutcome(deps: AdvanceDeps, payment: Payment, providerName: string, outcome: StatusOutcome): Promise<void> {
  if (outcome.kind === 'pending' && outcome.unknownStatus !== undefined) {
    await deps.unknownStatuses.recordUnknownStatus({
      paymentId: payment.id, tenantId: payment.tenantId, provider: providerName,
      providerStatus: providerWord(outcome.unknownStatus), seenAt: deps.clock.now(),
    });
  }
  if (payment.status === 'initiated') {
    if (outcome.kind === 'not_found') {
      const cleared = await patchPayment(deps, payment, { submittedAt: null });
      return cleared ? submitWithFailover(deps, cleared) : undefined;
    }
    const ref = 'providerRef' in outcome ? outcome.providerRef : undefined;
    if (outcome.kind === 'pending' && ref === undefined) return reschedule(deps, payment, outcome.afterMs);
    const moved = outcome.kind === 'failed'
      ? await applyMove(deps, payment.id, 'reject', { failure: failureOf(outcome) }, payment)
      : await applyMove(deps, payment.id, 'accept', { providerRef: ref ?? payment.providerRef ?? undefined }, payment);
    if (moved.ok && outcome.kind === 'failed') return countFinal(deps, payment, providerName, outcome);
    // Lost a race with the submission's own acceptance: carry on from the payment as it now is.
    const current = moved.ok ? moved.value : await deps.payments.findById(payment.id);
    if (!current) return;
    payment = current;
  }
  if (payment.status !== 'provider_accepted') return;
  const moves: Record<Exclude<StatusOutcome['kind'], 'pending' | 'not_found'>, PaymentMove> = { succeeded: 'complete', failed: 'fail', refunded: 'refund' };
  switch (outcome.kind) {
    case 'pending':
      return reschedule(deps, payment, outcome.afterMs);
    // An accepted payout the provider does not know is an anomaly for reconciliation, never a move.
    case 'not_found':
      return reschedule(deps, payment, UNSETTLED_RECHECK_MS);
    default: {
      const moved = await applyMove(deps, payment.id, moves[outcome.kind], 'reason' in outcome ? { failure: failureOf(outcome) } : {}, payment);
      if (moved.ok) await countFinal(deps, payment, providerName, outcome);
    }
  }
}

/**
 * Counts a payout's end in its provider's window, once (after the move that applied it): success,
 * or a failure when its code is the provider's; a refund is not counted (the payout had succeeded).
 */
async function countFinal(deps: AdvanceDeps, payment: Payment, providerName: string, outcome: StatusOutcome): Promise<void> {
  const counted: CountedOutcome | undefined = outcome.kind === 'succeeded' ? { kind: 'succeeded' }
    : outcome.kind === 'failed' ? { kind: 'failed', code: outcome.code } : undefined;
  if (counted) await countOutcome(deps.scoring, deps.clock.now(), providerName, payment, counted);
}

/** What applyProviderReport did with a report. */
export type ReportVerdict = 'applied' | 'unknown_payment' | 'other_provider' | 'final';

/**
 * Applies a verified provider callback (docs/decisions.md § Payout providers: callbacks): only to a
 * payment that provider has (its recorded provider), and only while the payment can still move, so
 * a duplicate or late callback changes nothing a second time. Errors are not values here: a
 * throw is a storage fault, and the payment's next status query settles it anyway.
 */
export async function applyProviderReport(deps: AdvanceDeps, report: ProviderReport): Promise<ReportVerdict> {
  const payment = await deps.payments.findById(report.paymentId);
  if (!payment) return 'unknown_payment';
  if (payment.provider !== report.provider) return 'other_provider';
  if (payment.status !== 'initiated' && payment.status !== 'provider_accepted') return 'final';
  await applyOutcome(deps, payment, report.provider, report.outcome);
  return 'applied';
}

