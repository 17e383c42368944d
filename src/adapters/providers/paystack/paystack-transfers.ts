import { z } from 'zod';
import type { CountryCode } from '../../../core/catalog/catalog';
import type { StatusOutcome } from '../../../core/payments/payout-provider';
import type { FiatCurrency } from '../../../core/shared/money';

/** The provider name recorded on payments (`PayoutProvider.name`). */
export const PAYSTACK = 'paystack';

/**
 * Bank recipient type and currency per country (https://paystack.com/docs/transfers/creating-transfer-recipients/,
 * "We support the following recipient types"): `nuban` NGN, `ghipss` GHS, `basa` ZAR, `kepss` KES.
 */
export const PAYSTACK_BANK_RECIPIENTS: Partial<Record<CountryCode, { readonly type: string; readonly currency: FiatCurrency }>> = {
  NG: { type: 'nuban', currency: 'NGN' },
  GH: { type: 'ghipss', currency: 'GHS' },
  ZA: { type: 'basa', currency: 'ZAR' },
  KE: { type: 'kepss', currency: 'KES' },
};

/**
 * Paystack's reference rule, the intersection of its two statements: "a lowercase alphanumeric
 * string with only -,_ symbols allowed", at least 16 characters (official OpenAPI `TransferBase`),
 * "no more than 100 characters" (https://paystack.com/docs/transfers/single-transfers/).
 */
const REFERENCE_RULE = /^[a-z0-9_-]{16,100}$/;
/** Our payment id, lowercased: `pay_` and a ULID in Crockford base32 (no i, l, o, u). */
const OUR_REFERENCE = /^pay_[0-9a-hjkmnp-tv-z]{26}$/;

/**
 * The transfer reference of a payment: its id lowercased (`pay_01j…`, 30 characters). Deterministic,
 * so a resubmission is the same transfer at Paystack (docs/decisions.md § Idempotency), and
 * reversible, since a ULID's alphabet has one case. Throws on an id that breaks Paystack's rule (a bug).
 */
export function referenceOf(paymentId: string): string {
  const reference = paymentId.toLowerCase();
  if (!REFERENCE_RULE.test(reference) || !OUR_REFERENCE.test(reference)) throw new Error(`Not a payment id: ${paymentId}`);
  return reference;
}

/** Our payment id from a transfer reference, or undefined when the transfer is not one of ours. */
export function paymentIdOf(reference: string): string | undefined {
  return OUR_REFERENCE.test(reference) ? `pay_${reference.slice(4).toUpperCase()}` : undefined;
}

/**
 * The fields of a transfer we read, common to initiate, verify, list and the transfer webhooks
 * (official OpenAPI `TransferVerifyResponse`; PaystackOSS/doc-code-snippets `events/transfer-*.json`).
 */
export const paystackTransfer = z.object({
  reference: z.string(),
  transfer_code: z.string().min(1),
  status: z.string(),
  amount: z.number().int().nonnegative(),
  currency: z.string(),
  gateway_response: z.string().nullish(),
  createdAt: z.string().optional(),
  created_at: z.string().optional(),
});
export type PaystackTransfer = z.infer<typeof paystackTransfer>;

/** Re-check delay of a transfer Paystack is still processing, ms. */
const PENDING_RECHECK_MS = 60_000;
/**
 * Re-check delay for a status Paystack does not document (none of the nine on "How transfers
 * work"), ms: it is held as pending, shown to operators as a finding, rather than failed, since
 * failing a payment that later completes would pay twice (docs/decisions.md § Reconciliation).
 */
const UNDOCUMENTED_RECHECK_MS = 15 * 60_000;
/**
 * The conclusive statuses other than `success` and `reversed` ("a conclusive status is one in which
 * no further action can be performed on"; https://paystack.com/docs/transfers/how-transfers-work/),
 * each a transfer that will not be paid, with the page's meaning as the issuer-facing reason.
 */
const NOT_PAID: Readonly<Record<string, string>> = {
  failed: 'Paystack transfer failed',
  abandoned: 'Paystack abandoned the transfer (no OTP within 30 minutes); it will not be processed',
  blocked: 'Paystack blocked the transfer (its approval request was neither approved nor rejected)',
  rejected: 'Paystack rejected the transfer (its approval request was declined)',
};
/**
 * What a transfer's `status` means for the payment, by Paystack's status table
 * (https://paystack.com/docs/transfers/how-transfers-work/): `success` → succeeded; `failed`,
 * `abandoned`, `blocked` and `rejected` (conclusive: Paystack is done with the transfer, nothing was
 * paid) → failed, so the ledger returns the amount; `reversed` ("the transfer amount is returned")
 * → refunded; `pending`, `received` (awaiting our approval) and `otp` (awaiting OTP, which must be
 * disabled for this service) → pending. Anything else → pending with a long re-check and the word
 * as its unknown status (a reconciliation finding).
 */
export function outcomeOfTransfer(transfer: PaystackTransfer): Exclude<StatusOutcome, { kind: 'not_found' }> {
  const providerRef = transfer.transfer_code;
  // Own keys only: a status such as `constructor` is not one of Paystack's.
  const notPaid = Object.hasOwn(NOT_PAID, transfer.status) ? NOT_PAID[transfer.status] : undefined;
  if (notPaid !== undefined) return { kind: 'failed', reason: `${notPaid}${detail(transfer)}` };
  switch (transfer.status) {
    case 'success':
      return { kind: 'succeeded', providerRef };
    case 'reversed':
      return { kind: 'refunded', reason: `Paystack reversed the transfer; the amount returned to the payout balance${detail(transfer)}` };
    case 'pending':
    case 'received':
    case 'otp':
      return { kind: 'pending', afterMs: PENDING_RECHECK_MS, providerRef };
    default:
      return { kind: 'pending', afterMs: UNDOCUMENTED_RECHECK_MS, providerRef, unknownStatus: transfer.status };
  }
}

function detail(transfer: PaystackTransfer): string {
  const text = transfer.gateway_response?.trim();
  return text ? `: ${text.slice(0, 200)}` : '';
}
