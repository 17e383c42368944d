import type { PaymentFailureCode } from '../../../core/payments/payment-failure';

/**
 * The failure code of a FAILED transfer by MTN's `reason` (docs/api.md § Failure codes), from MTN's
 * list of reasons per use case (https://momodevelopercommunity.mtn.com/product-updates/reason-for-some-failed-api-responses-updated-192)
 * and its common errors (https://momodevelopercommunity.mtn.com/errors-46/momo-api-common-errors-82):
 * - PAYEE_NOT_FOUND (invalid payee number, not registered for Mobile Money) and
 *   PAYEE_NOT_ALLOWED_TO_RECEIVE (blocked payee account) → `recipient_account_invalid`;
 * - NOT_ENOUGH_FUNDS → `insufficient_provider_balance`: for Disbursements MTN gives this one reason
 *   both for our account's insufficient funds and for the receiver's transaction limit, and the
 *   first is its primary meaning; the failure reason names both;
 * - PAYER_LIMIT_REACHED (a payer's transaction limit) → `limit_exceeded`;
 * - COULD_NOT_PERFORM_TRANSACTION (a transaction timeout) → `expired`;
 * - NOT_ALLOWED (blocked partner account), SENDER_ACCOUNT_NOT_ACTIVE (the paying account),
 *   INTERNAL_PROCESSING_ERROR (MTN's generic error) and TRANSACTION_NOT_FOUND → `provider_error`.
 * Any other reason, or none, is `unknown`.
 */
const REASON_FAILURE_CODES: Readonly<Record<string, PaymentFailureCode>> = {
  PAYEE_NOT_FOUND: 'recipient_account_invalid',
  PAYEE_NOT_ALLOWED_TO_RECEIVE: 'recipient_account_invalid',
  NOT_ENOUGH_FUNDS: 'insufficient_provider_balance',
  PAYER_LIMIT_REACHED: 'limit_exceeded',
  COULD_NOT_PERFORM_TRANSACTION: 'expired',
  NOT_ALLOWED: 'provider_error',
  SENDER_ACCOUNT_NOT_ACTIVE: 'provider_error',
  INTERNAL_PROCESSING_ERROR: 'provider_error',
  TRANSACTION_NOT_FOUND: 'provider_error',
};

/** The failure code of MTN's reason on a FAILED transfer (see REASON_FAILURE_CODES); `unknown` for any other. Pure. */
export function mtnMomoFailureCode(reason: string | undefined): PaymentFailureCode {
  return reason !== undefined && Object.hasOwn(REASON_FAILURE_CODES, reason) ? REASON_FAILURE_CODES[reason]! : 'unknown';
}
