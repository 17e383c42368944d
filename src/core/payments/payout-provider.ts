import type { Payment } from './payment';

/** What a provider says to a submission. `retry` asks to submit again after `afterMs` milliseconds. */
export type SubmitOutcome =
  | { readonly kind: 'accepted'; readonly providerRef: string }
  | { readonly kind: 'rejected'; readonly reason: string }
  | { readonly kind: 'retry'; readonly afterMs: number };

/** What a provider says about an accepted payout. `pending` asks to look again after `afterMs` milliseconds. */
export type StatusOutcome =
  | { readonly kind: 'pending'; readonly afterMs: number }
  | { readonly kind: 'succeeded' }
  | { readonly kind: 'failed'; readonly reason: string }
  | { readonly kind: 'refunded'; readonly reason: string };

/**
 * Port: the payout provider that moves fiat (docs/architecture.md; docs/decisions.md § Sandbox values). Both calls must be idempotent per
 * payment id: a worker that crashed mid-call submits again. Throwing means "unreachable"; the
 * worker backs off and retries.
 */
export interface PayoutProvider {
  submit(payment: Payment): Promise<SubmitOutcome>;
  status(payment: Payment): Promise<StatusOutcome>;
}
