/**
 * Why a payment failed or was refunded, as a machine-readable code beside the issuer-facing
 * `failureReason` (docs/api.md § Failure codes; docs/decisions.md § Payments: failure codes). A
 * closed set: each provider adapter maps every result it knows into one of these where the
 * provider's outcome becomes `rejected`, `failed` or `refunded`, and a result it cannot classify is
 * `unknown`.
 * - `recipient_account_invalid`: the account or number does not exist, is not registered for the
 *   service, is blocked or cannot receive this payment;
 * - `limit_exceeded`: the amount broke a limit of the provider or of the recipient's account
 *   (minimum or maximum per transaction, daily limit, maximum balance);
 * - `insufficient_provider_balance`: our own funds at the provider did not cover the payout;
 * - `declined`: the provider refused or rejected it without saying more;
 * - `expired`: it was not completed in time and will not be (expired, abandoned, timed out);
 * - `reversed`: it was paid and the funds came back;
 * - `unsupported_by_provider`: the provider cannot carry this payment at all (method, country,
 *   currency, amount format), refused before anything was sent;
 * - `provider_error`: the provider could not process it (its own fault, or our configuration there);
 * - `unknown`: the provider gave no reason we can classify;
 * - `compliance_rejected`: held by sanctions screening and rejected by an operator before anything
 *   was sent to a provider (docs/decisions.md § Screening); its hold is released.
 */
export const PAYMENT_FAILURE_CODES = [
  'recipient_account_invalid',
  'limit_exceeded',
  'insufficient_provider_balance',
  'declined',
  'expired',
  'reversed',
  'unsupported_by_provider',
  'provider_error',
  'unknown',
  'compliance_rejected',
] as const;
export type PaymentFailureCode = (typeof PAYMENT_FAILURE_CODES)[number];

/** Why a payment failed or was refunded: the issuer-facing text and its code. */
export interface PaymentFailure {
  readonly reason: string;
  readonly code: PaymentFailureCode;
}

/** The failure a provider outcome carries (its `reason` and `code`), without the outcome's other members. Pure. */
export function failureOf(outcome: PaymentFailure): PaymentFailure {
  return { reason: outcome.reason, code: outcome.code };
}
