import type { PaymentFailureCode } from '../../../core/payments/payment-failure';

/**
 * The failure code of a FAILED payout by pawaPay's `failureReason.failureCode` (docs/api.md
 * § Failure codes), from pawaPay's failure codes page (https://docs.pawapay.io/v2/docs/failure_codes,
 * "Transaction failures") and the cancel enqueued payout page:
 * - RECIPIENT_NOT_FOUND (the number is not registered with the provider) and
 *   RECIPIENT_NOT_ALLOWED_TO_RECEIVE (v1's name for a wallet that may not receive) → `recipient_account_invalid`;
 * - WALLET_LIMIT_REACHED (the recipient wallet's limit) → `limit_exceeded`;
 * - PAWAPAY_WALLET_OUT_OF_FUNDS (our pawaPay wallet) → `insufficient_provider_balance`;
 * - MANUALLY_CANCELLED (an enqueued payout cancelled from the Dashboard or the API) → `declined`;
 * - UNKNOWN_ERROR (pawaPay's own) → `provider_error`;
 * - UNSPECIFIED_FAILURE (the provider gave no reason) and any other code → `unknown`.
 */
const FAILURE_CODES: Readonly<Record<string, PaymentFailureCode>> = {
  RECIPIENT_NOT_FOUND: 'recipient_account_invalid',
  RECIPIENT_NOT_ALLOWED_TO_RECEIVE: 'recipient_account_invalid',
  WALLET_LIMIT_REACHED: 'limit_exceeded',
  PAWAPAY_WALLET_OUT_OF_FUNDS: 'insufficient_provider_balance',
  MANUALLY_CANCELLED: 'declined',
  UNKNOWN_ERROR: 'provider_error',
  UNSPECIFIED_FAILURE: 'unknown',
};

/** The failure code of pawaPay's failureCode on a FAILED payout (see FAILURE_CODES); `unknown` for any other. Pure. */
export function pawapayFailureCode(code: string | undefined): PaymentFailureCode {
  return code !== undefined && Object.hasOwn(FAILURE_CODES, code) ? FAILURE_CODES[code]! : 'unknown';
}

/**
 * What a REJECTED initiation means (https://docs.pawapay.io/v2/docs/failure_codes, "Technical
 * failures"; a REJECTED payout is not created and gets no callback, initiate payout page):
 * - `setup`: our account or credentials (NO_AUTHENTICATION, AUTHENTICATION_ERROR, AUTHORISATION_ERROR,
 *   HTTP_SIGNATURE_ERROR, PAYOUTS_NOT_ALLOWED), the provider closed for now
 *   (PROVIDER_TEMPORARILY_UNAVAILABLE) or our pawaPay wallet empty (PAWAPAY_WALLET_OUT_OF_FUNDS):
 *   nothing was taken, so it may go again later or to another provider;
 * - a failure code for the payment itself: INVALID_PHONE_NUMBER → `recipient_account_invalid`,
 *   AMOUNT_OUT_OF_BOUNDS → `limit_exceeded`, INVALID_AMOUNT, INVALID_CURRENCY and INVALID_PROVIDER →
 *   `unsupported_by_provider`, the request-shape codes (INVALID_INPUT, MISSING_PARAMETER,
 *   UNSUPPORTED_PARAMETER, INVALID_PARAMETER, DUPLICATE_METADATA_FIELD) → `provider_error`
 *   (our adapter's fault there); any other code → `unknown`.
 */
export type RejectionMeaning = { readonly kind: 'setup' } | { readonly kind: 'payment'; readonly code: PaymentFailureCode };

const SETUP_REJECTIONS = new Set([
  'NO_AUTHENTICATION', 'AUTHENTICATION_ERROR', 'AUTHORISATION_ERROR', 'HTTP_SIGNATURE_ERROR', 'PAYOUTS_NOT_ALLOWED',
  'PROVIDER_TEMPORARILY_UNAVAILABLE', 'PAWAPAY_WALLET_OUT_OF_FUNDS',
]);
const PAYMENT_REJECTIONS: Readonly<Record<string, PaymentFailureCode>> = {
  INVALID_PHONE_NUMBER: 'recipient_account_invalid',
  AMOUNT_OUT_OF_BOUNDS: 'limit_exceeded',
  INVALID_AMOUNT: 'unsupported_by_provider',
  INVALID_CURRENCY: 'unsupported_by_provider',
  INVALID_PROVIDER: 'unsupported_by_provider',
  INVALID_INPUT: 'provider_error',
  MISSING_PARAMETER: 'provider_error',
  UNSUPPORTED_PARAMETER: 'provider_error',
  INVALID_PARAMETER: 'provider_error',
  DUPLICATE_METADATA_FIELD: 'provider_error',
};

/** The meaning of a REJECTED initiation's failureCode (see RejectionMeaning). Pure. */
export function rejectionMeaning(code: string | undefined): RejectionMeaning {
  if (code !== undefined && SETUP_REJECTIONS.has(code)) return { kind: 'setup' };
  const mapped = code !== undefined && Object.hasOwn(PAYMENT_REJECTIONS, code) ? PAYMENT_REJECTIONS[code]! : 'unknown';
  return { kind: 'payment', code: mapped };
}
