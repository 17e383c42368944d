import type { ProviderRecords, ReportWindow } from '../../../core/reconciliation/reconciliation-report';
import type { FlutterwavePayoutProvider } from './flutterwave-payout-provider';

/**
 * How far past the window's end transfers are listed, ms: a payment created just before `to` reaches
 * Flutterwave later (after retries, up to hours), and Flutterwave filters by its own creation time.
 */
const LIST_SLACK_AFTER_MS = 24 * 3600_000;
/** How far before the window's start, ms: Flutterwave does not document whether its bounds are inclusive, nor their time zone. */
const LIST_SLACK_BEFORE_MS = 60_000;

/**
 * Flutterwave's records for reconciliation (docs/decisions.md § Reconciliation) from its list API,
 * `GET /v3/transfers?from=&to=` (read by `listFlutterwaveTransfers`), with amounts, over the
 * window widened by the slack above. Transfers whose reference is not ours are left out. Throws
 * when a page cannot be read.
 */
export function flutterwaveRecords(flutterwave: Pick<FlutterwavePayoutProvider, 'name' | 'transfersBetween'>): ProviderRecords {
  return {
    provider: flutterwave.name,
    async recordsFor(_payments, window: ReportWindow) {
      const listed = await flutterwave.transfersBetween(
        new Date(window.from.getTime() - LIST_SLACK_BEFORE_MS), new Date(window.to.getTime() + LIST_SLACK_AFTER_MS),
      );
      return listed.transfers.map((t) => ({
        paymentId: t.paymentId, outcome: t.outcome.kind, providerStatus: t.providerStatus, amount: t.amount, currency: t.currency,
      }));
    },
  };
}
