import { err, ok, type Result } from '../shared/result';
import type { PaymentReader } from './payment-ports';
import { toPaymentView, type PaymentView } from './payment-view';

/**
 * Reads one payment of the caller's tenant (OpenAPI getPayment). Errors: `not_found` when it does not
 * exist or belongs to another tenant (no existence oracle, docs/decisions.md § Errors: shapes per route family).
 */
export async function getPayment(
  payments: PaymentReader,
  tenantId: string,
  paymentId: string,
): Promise<Result<PaymentView, 'not_found'>> {
  const payment = await payments.findViewForTenant(tenantId, paymentId);
  return payment ? ok(toPaymentView(payment)) : err('not_found', `Payment ${paymentId} not found`);
}
