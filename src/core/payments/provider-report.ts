import type { StatusOutcome } from './payout-provider';

/**
 * A provider's word about one payment, from a callback or a status query (docs/decisions.md
 * § Payments: states and events). Callback adapters verify and parse the provider's message into
 * this; the core applies it through `transition()`, so a duplicate or late report changes nothing
 * a second time.
 */
export interface ProviderReport {
  /** The provider's name, as `PayoutProvider.name`. */
  readonly provider: string;
  /** Our payment id (`pay_...`), recovered from the reference we gave the provider. */
  readonly paymentId: string;
  /** What happened; `pending` with a `providerRef` confirms the provider took the payout. */
  readonly outcome: Exclude<StatusOutcome, { kind: 'not_found' }>;
  /** The provider's own id of this message or transaction, when it has one (for audit and duplicates). */
  readonly providerEventId?: string;
}
