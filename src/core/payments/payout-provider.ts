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
 * milliseconds (with the provider's reference when it gives one); `not_found` means the provider
 * has no record of the payment, so a submission whose outcome was unknown never arrived and may be
 * sent again. `failed` and `refunded` carry a reason for the issuer and its code (docs/api.md
 * § Failure codes), mapped by the adapter from the provider's own status or result code.
 */
export type StatusOutcome =
  | { readonly kind: 'pending'; readonly afterMs: number; readonly providerRef?: string }
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
  /** Stable name recorded on the payments it serves: `sandbox`, `mpesa`, `mtn_momo`, `paystack`. */
  readonly name: string;
  submit(payment: Payment): Promise<SubmitOutcome>;
  status(payment: Payment): Promise<StatusOutcome>;
}
