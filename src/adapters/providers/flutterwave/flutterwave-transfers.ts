import { z } from 'zod';
import type { StatusOutcome } from '../../../core/payments/payout-provider';
import { flutterwaveFailureCode } from './flutterwave-failure-codes';

/** The provider name recorded on payments (`PayoutProvider.name`). */
export const FLUTTERWAVE = 'flutterwave';

/** Our payment id: `pay_` and a ULID in Crockford base32 (no I, L, O, U). */
const OUR_REFERENCE = /^pay_[0-9A-HJKMNP-TV-Z]{26}$/;

/**
 * The transfer reference of a payment: its id as it is (`pay_01J…`, 30 characters of letters, digits
 * and `_`). Flutterwave calls `reference` "a merchant's unique reference for the transfer, it can be
 * used to query for the status of the transfer" (https://developer.flutterwave.com/reference/endpoints/transfers/)
 * and refuses a reference already used, so every submission of one payment names the same transfer
 * (docs/decisions.md § Idempotency). Throws on an id that is not a payment id (a bug).
 */
export function referenceOf(paymentId: string): string {
  if (!OUR_REFERENCE.test(paymentId)) throw new Error(`Not a payment id: ${paymentId}`);
  return paymentId;
}

/** Our payment id from a transfer reference, or undefined when the transfer is not one of ours. */
export function paymentIdOf(reference: string): string | undefined {
  return OUR_REFERENCE.test(reference) ? reference : undefined;
}

/**
 * The fields of a transfer we read, common to create, list and the `transfer.completed` webhook
 * (v3 samples in https://developer.flutterwave.com/reference/endpoints/transfers/ and
 * https://developer.flutterwave.com/docs/webhooks; Flutterwave/Node-v3 documentation/transfers.md).
 * `amount` is in major units of `currency` (e.g. 5500 NGN, 49.99 GHS).
 */
export const flutterwaveTransfer = z.object({
  id: z.number().int().nonnegative(),
  reference: z.string(),
  status: z.string(),
  amount: z.number().nonnegative(),
  currency: z.string(),
  complete_message: z.string().nullish(),
  created_at: z.string().nullish(),
});
export type FlutterwaveTransfer = z.infer<typeof flutterwaveTransfer>;

/** Re-check delay of a transfer Flutterwave is still processing, ms. */
const PENDING_RECHECK_MS = 60_000;
/**
 * Re-check delay for a status Flutterwave does not document (none of NEW, PENDING, SUCCESSFUL,
 * FAILED), ms: held as pending and shown to operators as a finding, never failed, since failing a
 * payment that later completes would pay twice (docs/decisions.md § Reconciliation).
 */
const UNDOCUMENTED_RECHECK_MS = 15 * 60_000;

/**
 * What a transfer's `status` means for the payment, by Flutterwave's transfer statuses ("When a
 * transfer is initiated, it comes with a status NEW … queued for processing"; the webhook and the
 * get-transfer answer then carry `SUCCESSFUL` or `FAILED`, https://developer.flutterwave.com/docs/making-payments/transfers/overview;
 * `PENDING` while the processor works on it): `SUCCESSFUL` → succeeded; `FAILED` → failed, the
 * `complete_message` as the reason and its failure code (`flutterwaveFailureCode`), so the ledger
 * returns the amount; `NEW` and `PENDING` → pending. Anything else → pending with a long re-check and
 * the word as its unknown status (a reconciliation finding). Flutterwave's v3 transfers document no
 * reversal status, so none is mapped to `refunded`.
 */
export function outcomeOfTransfer(transfer: FlutterwaveTransfer): Exclude<StatusOutcome, { kind: 'not_found' }> {
  const providerRef = String(transfer.id);
  switch (transfer.status) {
    case 'SUCCESSFUL':
      return { kind: 'succeeded', providerRef };
    case 'FAILED': {
      const message = transfer.complete_message?.trim() ?? '';
      return {
        kind: 'failed',
        reason: `Flutterwave transfer failed${message ? `: ${message.slice(0, 200)}` : ''}`,
        code: flutterwaveFailureCode(message),
      };
    }
    case 'NEW':
    case 'PENDING':
      return { kind: 'pending', afterMs: PENDING_RECHECK_MS, providerRef };
    default:
      return { kind: 'pending', afterMs: UNDOCUMENTED_RECHECK_MS, providerRef, unknownStatus: transfer.status };
  }
}
