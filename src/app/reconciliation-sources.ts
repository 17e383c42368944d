import { MpesaPayoutProvider } from '../adapters/providers/mpesa/mpesa-payout-provider';
import { PaystackPayoutProvider } from '../adapters/providers/paystack/paystack-payout-provider';
import { paystackRecords } from '../adapters/providers/paystack/paystack-records';
import { FlutterwavePayoutProvider } from '../adapters/providers/flutterwave/flutterwave-payout-provider';
import { flutterwaveRecords } from '../adapters/providers/flutterwave/flutterwave-records';
import type { PayoutProvider } from '../core/payments/payout-provider';
import { MeteredPayoutProvider, type ProviderCallObserver } from '../adapters/providers/metered-payout-provider';
import { recordsByStatus, type ProviderRecords } from '../core/reconciliation/reconciliation-report';

/**
 * The record readers of reconciliation reports for `providers` (docs/decisions.md
 * § Reconciliation): Paystack and Flutterwave through their list APIs, every other provider one status query per
 * payment; M-Pesa answers its Transaction Status query on the ResultURL, so its payments are asked
 * and reported unconfirmed. `providers` are the adapters themselves (their class decides how they
 * are read); with `observeCall`, the status queries are timed like the workers' (README "Metrics and health").
 */
export function reconciliationSources(providers: readonly PayoutProvider[], observeCall?: ProviderCallObserver): ProviderRecords[] {
  return providers.map((provider) => {
    if (provider instanceof PaystackPayoutProvider) return paystackRecords(provider);
    if (provider instanceof FlutterwavePayoutProvider) return flutterwaveRecords(provider);
    const asked = observeCall ? new MeteredPayoutProvider(provider, observeCall) : provider;
    return recordsByStatus(asked, { answersLater: provider instanceof MpesaPayoutProvider });
  });
}
