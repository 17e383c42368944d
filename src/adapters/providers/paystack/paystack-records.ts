import type { ProviderRecords, ReportWindow } from '../../../core/reconciliation/reconciliation-report';
import type { PaystackPayoutProvider } from './paystack-payout-provider';

/**
 * How far past the window's end transfers are listed, ms: a payment created just before `to` reaches
 * Paystack later (after retries, up to hours), and Paystack filters by its own creation time.
 */
const LIST_SLACK_AFTER_MS = 24 * 3600_000;
/** How far before the window's start, ms: Paystack does not document whether its bounds are inclusive. */
const LIST_SLACK_BEFORE_MS = 60_000;

/**
 * Paystack's records for reconciliation (docs/decisions.md § Reconciliation) from its list API,
 * `GET /transfer?from=&to=` (official OpenAPI `transfer_list`, read by `listPaystackTransfers`), with amounts, over the
 * window widened by the slack above. Transfers whose reference is not ours are left out. Throws
 * when a page cannot be read.
 */
export function paystackRecords(paystack: Pick<PaystackPayoutProvider, 'name' | 'transfersBetween'>): ProviderRecords {
  return {
    provider: paystack.name,
    async recordsFor(_payments, window: ReportWindow) {
      const listed = await paystack.transfersBetween(
        new Date(window.from.getTime() - LIST_SLACK_BEFORE_MS), new Date(window.to.getTime() + LIST_SLACK_AFTER_MS),
      );
      return listed.transfers.map((t) => ({
        paymentId: t.paymentId, outcome: t.outcome.kind, providerStatus: t.providerStatus, amount: t.amount, currency: t.currency,
      }));
    },
  };
}
