import { applyMove, type AdvanceDeps } from '../payments/advance-payment';
import type { PaymentMove } from '../payments/payment-state';
import type { PaymentFailureCode } from '../payments/payment-failure';
import { toPaymentView, type PaymentView } from '../payments/payment-view';
import { err, ok, type Result } from '../shared/result';

/** Outcomes an admin may force on a sandbox payment (docs/decisions.md § Sandbox values: e.g. a `3333` payment). */
export const SIMULATED_OUTCOMES = ['succeeded', 'failed', 'refunded'] as const;
export type SimulatedOutcome = (typeof SIMULATED_OUTCOMES)[number];

const FINAL_MOVE: Record<SimulatedOutcome, PaymentMove> = { succeeded: 'complete', failed: 'fail', refunded: 'refund' };
/** The failure code a simulated outcome records (docs/api.md § Failure codes): a refused payout, or funds that came back. */
const SIMULATED_FAILURE_CODE: Record<Exclude<SimulatedOutcome, 'succeeded'>, PaymentFailureCode> = { failed: 'declined', refunded: 'reversed' };

/** Closed set of expected failures of a simulation. */
export type SimulateErrorCode = 'not_found' | 'forbidden' | 'invalid_state';

/**
 * Forces a provider result on a sandbox payment through the same moves the worker makes (an
 * `initiated` payment is accepted first). Errors: `not_found`, `forbidden` (not a sandbox tenant's
 * payment), `invalid_state` (already final).
 */
export async function simulatePayment(
  deps: Pick<AdvanceDeps, 'uow' | 'payments' | 'clock' | 'ids' | 'onPaymentMoved' | 'environments'> & { isSandboxTenant(tenantId: string): Promise<boolean> },
  paymentId: string,
  outcome: SimulatedOutcome,
): Promise<Result<PaymentView, SimulateErrorCode>> {
  const payment = await deps.payments.findById(paymentId);
  if (!payment) return err('not_found', `Payment ${paymentId} not found`);
  if (!(await deps.isSandboxTenant(payment.tenantId))) return err('forbidden', 'Only sandbox payments can be simulated');
  if (payment.status === 'initiated') {
    await applyMove(deps, paymentId, 'accept', { providerRef: `sbx_${paymentId.slice(4)}` });
  }
  const moved = await applyMove(deps, paymentId, FINAL_MOVE[outcome], outcome === 'succeeded'
    ? {}
    : { failure: { reason: `Simulated ${outcome} by an operator`, code: SIMULATED_FAILURE_CODE[outcome] } });
  if (!moved.ok) return moved.code === 'not_found' ? err('not_found', moved.message) : err('invalid_state', `Payment ${paymentId} is already final`);
  return ok(toPaymentView(moved.value));
}
