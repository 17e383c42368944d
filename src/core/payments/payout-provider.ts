import type { Payment } from './payment';
import type { PaymentFailureCode } from './payment-failure';

/**
 * What a provider says to a submission (docs/decisions.md § Payments: states and events).
 * - `accepted`: the provider took the payout; `providerRef` is its own id for it; `recheckAfterMs`,
 *   when set, is how long to wait before the first status query (a provider whose result comes by
 *   callback), else it is asked at once.
 * - `rejected`: the provider refused it; nothing will be paid (the payment fails before acceptance).
 *   `code` classifies `reason` (docs/api.md § Failure codes).
 * - `retry`: the payout was certainly NOT taken (not sent, refused before processing: rate limited,
 *   circuit open, connection refused, not yet due in the sandbox): submitting again after
 *   `afterMs` milliseconds, to this or another provider, cannot pay twice. `reason` is for logs.
 * - `unknown`: the request may have been taken (a timeout, a reset or a 5xx after it was sent): the
 *   next step is a status query, never a blind resubmit.
 */
export type SubmitOutcome =
  | { readonly kind: 'accepted'; readonly providerRef: string; readonly recheckAfterMs?: number }
  | { readonly kind: 'rejected'; readonly reason: string; readonly code: PaymentFailureCode }
  | { readonly kind: 'retry'; readonly afterMs: number; readonly reason?: string }
  | { readonly kind: 'unknown'; readonly reason: string };

/**
 * What a provider says about a payout it was sent. `pending` asks to look again after `afterMs`
 * milliseconds (with the provider's reference when it gives one); with `unknownStatus`, the
 * provider answered a status (or result code) its adapter does not map, given here as the
 * provider's own word: the payment waits, and an operator is shown it as a reconciliation finding
 * (docs/decisions.md § Reconciliation), since guessing either way could pay twice or lose a payout.
 * `not_found` means the provider has no record of the payment, so a submission whose outcome was
 * unknown never arrived and may be sent again. `failed` and `refunded` carry a reason for the issuer
 * and its code (docs/api.md § Failure codes), mapped by the adapter from the provider's own status
 * or result code.
 */
export type StatusOutcome =
  | { readonly kind: 'pending'; readonly afterMs: number; readonly providerRef?: string; readonly unknownStatus?: string }
  | { readonly kind: 'succeeded'; readonly providerRef?: string }
  | { readonly kind: 'failed'; readonly reason: string; readonly code: PaymentFailureCode }
  | { readonly kind: 'refunded'; readonly reason: string; readonly code: PaymentFailureCode }
  | { readonly kind: 'not_found' };

/**
 * Port: a payout provider that moves fiat (docs/architecture.md). Both calls must be idempotent per
 * payment: the provider's own idempotency reference derives from the payment id, so a submission
 * repeated after a crash is the same transfer. Expected outcomes are values; throwing means an
 * infrastructure fault (the worker backs off and asks again).
 */
export interface PayoutProvider {
  /** Stable name recorded on the payments it serves: `sandbox`, `mpesa`, `mtn_momo`, `paystack`, `pawapay`. */
  readonly name: string;
  submit(payment: Payment): Promise<SubmitOutcome>;
  status(payment: Payment): Promise<StatusOutcome>;
}

/** A provider's word as operators may see it in findings and logs: printable ASCII only (others as `?`), at most 80 characters. */
export function providerWord(word: string): string {
  return word.replace(/[^\x20-\x7e]/g, '?').slice(0, 80);
}

/** A provider status we do not map, as seen on one payment (docs/decisions.md § Reconciliation). */
export interface UnknownStatusSeen {
  readonly paymentId: string;
  readonly tenantId: string;
  /** `PayoutProvider.name` of the provider that answered. */
  readonly provider: string;
  /** The provider's own word, as `providerWord` gives it. */
  readonly providerStatus: string;
  readonly seenAt: Date;
}

/**
 * Port: where an unmapped provider status is recorded for operators: a reconciliation finding
 * `unknown_provider_status` on the payment, listed while the payment is not final (docs/decisions.md
 * § Reconciliation). Recording it again refreshes the finding.
 */
export interface UnknownStatusFindings {
  recordUnknownStatus(seen: UnknownStatusSeen): Promise<void>;
}
