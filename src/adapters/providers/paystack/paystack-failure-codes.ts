import type { PaymentFailureCode } from '../../../core/payments/payment-failure';

/**
 * The failure code of a transfer Paystack will not pay or paid back, by its `status` (docs/api.md
 * § Failure codes), from the meanings of https://paystack.com/docs/transfers/how-transfers-work/:
 * - `reversed` ("the customer's bank is unable to receive money at that moment. The transfer
 *   amount is returned") → `reversed`;
 * - `failed` ("typically happens when the processor is down") → `provider_error`;
 * - `abandoned` (no OTP within 30 minutes) and `blocked` (no approval or rejection from our server
 *   in time) → `expired`;
 * - `rejected` (our server declined the approval request) → `declined`.
 * Any other status is `unknown`.
 */
const STATUS_FAILURE_CODES: Readonly<Record<string, PaymentFailureCode>> = {
  reversed: 'reversed',
  failed: 'provider_error',
  abandoned: 'expired',
  blocked: 'expired',
  rejected: 'declined',
};

/** The failure code of a transfer's `status` (see STATUS_FAILURE_CODES); `unknown` for any other. Pure. */
export function paystackFailureCode(status: string): PaymentFailureCode {
  return Object.hasOwn(STATUS_FAILURE_CODES, status) ? STATUS_FAILURE_CODES[status]! : 'unknown';
}
