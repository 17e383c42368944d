import { applyMove, type AdvanceDeps } from '../payments/advance-payment';
import type { Payment } from '../payments/payment';
import type { PaymentMove } from '../payments/payment-state';
import { providerWord, type StatusOutcome } from '../payments/payout-provider';
import type { MismatchKind, ProviderOfPayment, ReconciliationChecks } from './reconciliation-ports';

/** What one status query of a stuck payment came to; `provider` is null when no provider serves it. */
export interface StuckCheck {
  readonly paymentId: string;
  readonly provider: string | null;
  /** The provider's answer (`not_found` included), `no_provider`, or `error` when the query threw. */
  readonly outcome: StatusOutcome['kind'] | 'no_provider' | 'error';
  /** The status the payment moved to, when the answer moved it. */
  readonly movedTo?: Payment['status'];
  readonly mismatch?: MismatchKind;
  /** With `unknown_provider_status`: the provider's word its adapter does not map. */
  readonly providerStatus?: string;
}

/** Ports and settings of the reconciliation worker (docs/decisions.md § Reconciliation). */
export interface StuckPaymentDeps extends Pick<AdvanceDeps, 'uow' | 'payments' | 'clock' | 'ids' | 'onPaymentMoved' | 'environments'> {
  readonly checks: ReconciliationChecks;
  readonly providers: ProviderOfPayment;
  /** A payment `provider_accepted` for longer than this many seconds is stuck. */
  readonly stuckAfterSeconds: number;
  /** Seconds before a stuck payment that is still pending (or could not be asked) is asked again. */
  readonly recheckSeconds: number;
  /** Called for every check, e.g. for metrics and logs. */
  readonly onChecked?: (check: StuckCheck) => void;
}

const FINAL_MOVES: Partial<Record<StatusOutcome['kind'], PaymentMove>> = { succeeded: 'complete', failed: 'fail', refunded: 'refund' };

/**
 * One pass of the reconciliation worker (docs/decisions.md § Reconciliation): claims up to `limit`
 * payments stuck in `provider_accepted` for longer than `stuckAfterSeconds`, asks their provider
 * for the status, and moves those with a final answer through `applyMove` (the same guarded move
 * as a callback or the payout worker, so a result already applied changes nothing). A provider
 * that does not know the payment, or answers a status its adapter does not map, is a mismatch:
 * recorded and reported, never corrected. Returns
 * how many payments were claimed; never throws for one payment's provider fault.
 */
export async function resolveStuckPayments(deps: StuckPaymentDeps, limit: number): Promise<number> {
  const now = deps.clock.now();
  const seconds = (n: number) => new Date(now.getTime() + n * 1000);
  const claimed = await deps.checks.claimStuck(now, seconds(-deps.stuckAfterSeconds), limit, seconds(deps.recheckSeconds));
  for (const payment of claimed) {
    const check = await checkOne(deps, payment);
    await deps.checks.recordCheck({
      paymentId: payment.id, provider: check.provider, checkedAt: now, nextCheckAt: seconds(deps.recheckSeconds),
      finding: check.mismatch ? { kind: check.mismatch, detail: findingDetail(check) } : null,
    });
    deps.onChecked?.(check);
  }
  return claimed.length;
}

async function checkOne(deps: StuckPaymentDeps, payment: Payment): Promise<StuckCheck> {
  const provider = await deps.providers.providerOf(payment);
  if (!provider) return { paymentId: payment.id, provider: null, outcome: 'no_provider' };
  const base = { paymentId: payment.id, provider: provider.name };
  let outcome: StatusOutcome;
  try {
    outcome = await provider.status(payment);
  } catch {
    return { ...base, outcome: 'error' };
  }
  if (outcome.kind === 'not_found') return { ...base, outcome: outcome.kind, mismatch: 'missing_at_provider' };
  if (outcome.kind === 'pending' && outcome.unknownStatus !== undefined) {
    return { ...base, outcome: outcome.kind, mismatch: 'unknown_provider_status', providerStatus: outcome.unknownStatus };
  }
  const move = FINAL_MOVES[outcome.kind];
  if (!move) return { ...base, outcome: outcome.kind };
  const moved = await applyMove(deps, payment.id, move, 'reason' in outcome ? { failureReason: outcome.reason } : {});
  // Not moved: the payment left provider_accepted meanwhile (a callback or the payout worker was first).
  return moved.ok ? { ...base, outcome: outcome.kind, movedTo: moved.value.status } : { ...base, outcome: outcome.kind };
}

function findingDetail(check: StuckCheck): string {
  if (check.mismatch === 'unknown_provider_status') return unknownStatusDetail(check.provider ?? 'no provider', check.providerStatus ?? '');
  return `${check.provider ?? 'no provider'} has no record of payment ${check.paymentId}, ours is provider_accepted`;
}

/**
 * The operator-facing detail of an `unknown_provider_status` finding (docs/decisions.md
 * § Reconciliation), with the provider's word as `providerWord` gives it.
 */
export function unknownStatusDetail(provider: string, providerStatus: string): string {
  return `${provider} answered status "${providerWord(providerStatus)}", which we do not map: the payment waits for an operator`;
}
