import { MpesaPayoutProvider } from '../adapters/providers/mpesa/mpesa-payout-provider';
import { PaystackPayoutProvider } from '../adapters/providers/paystack/paystack-payout-provider';
import { paystackRecords } from '../adapters/providers/paystack/paystack-records';
import type { PayoutProvider } from '../core/payments/payout-provider';
import { recordsByStatus, type ProviderRecords } from '../core/reconciliation/reconciliation-report';

/**
 * The record readers of reconciliation reports for `providers` (docs/decisions.md
 * § Reconciliation): Paystack through its list API, every other provider one status query per
 * payment; M-Pesa answers its Transaction Status query on the ResultURL, so its payments are asked
 * and reported unconfirmed.
 */
export function reconciliationSources(providers: readonly PayoutProvider[]): ProviderRecords[] {
  return providers.map((provider) => {
    if (provider instanceof PaystackPayoutProvider) return paystackRecords(provider);
    return recordsByStatus(provider, { answersLater: provider instanceof MpesaPayoutProvider });
  });
}
