import type { PaymentFailureCode } from '../../../core/payments/payment-failure';

/**
 * `complete_message` texts of FAILED transfers, as Flutterwave's own samples show them, and the
 * failure code each means (docs/api.md § Failure codes). Flutterwave publishes no closed list, so
 * the samples are matched by their distinctive part, case-insensitively:
 * - "DISBURSE FAILED: Insufficient funds in customer wallet" (Flutterwave/Node-v3 webhook sample) and
 *   "DISBURSE FAILED: Insufficient wallet balance" (v4 reference `provider_response.message`)
 *   → `insufficient_provider_balance`: our balance at Flutterwave did not cover it;
 * - "DISBURSE FAILED: You can only spend GHS 1000.00 at once" (Node-v3 documentation/transfers.md,
 *   list sample) → `limit_exceeded`;
 * - "beneficiary_name is required" (same sample) → `provider_error`: our request lacked a field;
 * - "DISBURSE FAILED: A fatal error occured while proccesing your request." (same sample, Flutterwave's
 *   spelling) → `provider_error`.
 * Any other message is `unknown`.
 */
const MESSAGE_FAILURE_CODES: ReadonlyArray<{ readonly pattern: RegExp; readonly code: PaymentFailureCode }> = [
  { pattern: /insufficient (funds|wallet balance|balance)/i, code: 'insufficient_provider_balance' },
  { pattern: /you can only spend .+ at once/i, code: 'limit_exceeded' },
  { pattern: /\bis required\b/i, code: 'provider_error' },
  { pattern: /fatal error occured/i, code: 'provider_error' },
];

/** The failure code of a FAILED transfer's `complete_message` (see MESSAGE_FAILURE_CODES); `unknown` for any other. Pure. */
export function flutterwaveFailureCode(completeMessage: string): PaymentFailureCode {
  return MESSAGE_FAILURE_CODES.find((entry) => entry.pattern.test(completeMessage))?.code ?? 'unknown';
}
