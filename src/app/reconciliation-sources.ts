import { PaystackPayoutProvider } from '../adapters/providers/paystack/paystack-payout-provider';
import { paystackRecords } from '../adapters/providers/paystack/paystack-records';
import type { PayoutProvider } from '../core/payments/payout-provider';
import { recordsByStatus, type ProviderRecords } from '../core/reconciliation/reconciliation-report';

/**
 * The record readers of reconciliation reports for `providers` (docs/decisions.md
 * § Reconciliation): Paystack through its list API, every other provider one status query per payment.
 */
export function reconciliationSources(providers: readonly PayoutProvider[]): ProviderRecords[] {
  return providers.map((provider) => (provider instanceof PaystackPayoutProvider ? paystackRecords(provider) : recordsByStatus(provider)));
}
