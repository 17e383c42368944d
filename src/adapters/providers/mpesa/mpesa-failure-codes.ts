import type { PaymentFailureCode } from '../../../core/payments/payment-failure';

/**
 * The failure code of a failed B2C or B2B result, by its `ResultCode` (docs/api.md § Failure codes;
 * the codes and their meanings are the B2C "Result Codes" table,
 * https://developer.safaricom.co.ke/apis/BusinessToCustomer, as RESULT_DESCRIPTIONS words them):
 * 1 our shortcode's balance; 2, 3, 4 and 8 limit rules (minimum, maximum, daily limit, the
 * recipient's maximum balance); 2040 a recipient M-Pesa cannot pay; 11, 21, 2001, 2028, 8006 and
 * SFC_IC0003 our own shortcode, initiator or credential at Safaricom; 2006 an account rule that does
 * not say whose account. The Account Balance error table's own failures (API_RESULT_FAILURES: 17
 * internal failure, 18-20 and 22 our initiator's credential, sequencing or state) are Safaricom's
 * side or ours there: `provider_error`. Any other code is `unknown`.
 */
const RESULT_FAILURE_CODES: Readonly<Record<string, PaymentFailureCode>> = {
  1: 'insufficient_provider_balance',
  2: 'limit_exceeded',
  3: 'limit_exceeded',
  4: 'limit_exceeded',
  8: 'limit_exceeded',
  11: 'provider_error',
  21: 'provider_error',
  2001: 'provider_error',
  2006: 'declined',
  2028: 'provider_error',
  2040: 'recipient_account_invalid',
  8006: 'provider_error',
  SFC_IC0003: 'provider_error',
  17: 'provider_error',
  18: 'provider_error',
  19: 'provider_error',
  20: 'provider_error',
  22: 'provider_error',
};

/** The failure code of a failed payment result's `ResultCode` (see RESULT_FAILURE_CODES); `unknown` for a code not in the table. Pure. */
export function mpesaResultFailureCode(resultCode: string): PaymentFailureCode {
  return Object.hasOwn(RESULT_FAILURE_CODES, resultCode) ? RESULT_FAILURE_CODES[resultCode]! : 'unknown';
}

/**
 * The failure code of a final, unpaid Transaction Status (`TransactionStatus`, lower case; the
 * FAQ's final statuses, https://developer.safaricom.co.ke/apis/TransactionStatus): `expired` for
 * Expired, `declined` for Cancelled and Declined. Pure.
 */
export function mpesaStatusFailureCode(status: string): PaymentFailureCode {
  return status === 'expired' ? 'expired' : 'declined';
}
