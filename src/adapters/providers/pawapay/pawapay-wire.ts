import { z } from 'zod';
import type { StatusOutcome } from '../../../core/payments/payout-provider';
import { providerWord } from '../../../core/payments/payout-provider';
import { pawapayFailureCode } from './pawapay-failure-codes';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const PAYMENT_ID = /^pay_([0-9A-HJKMNP-TV-Z]{26})$/;
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** 122 bits: what a version 4 UUID leaves free once its version and variant bits are set. */
const FREE_BITS = 122n;

/**
 * The `payoutId` of a payment's payout: a UUID version 4 (pawaPay asks for "a UUIDv4 payoutId",
 * https://docs.pawapay.io/v2/docs/payouts) derived from our payment id alone, so every submission of
 * one payment is the same payout at pawaPay, which answers DUPLICATE_IGNORED to a repeat
 * (docs/decisions.md § Idempotency). The payment id's ULID is 128 bits whose top 6 are zero until the
 * year 2109, so it fits the 122 free bits exactly and `paymentIdOfPayout` reads it back: a callback
 * names its payment without a lookup. Throws (a bug) for a string that is not a payment id.
 */
export function payoutIdOf(paymentId: string): string {
  const match = PAYMENT_ID.exec(paymentId);
  if (!match) throw new Error('not a payment id');
  let value = 0n;
  for (const char of match[1]!) value = (value << 5n) | BigInt(CROCKFORD.indexOf(char));
  if (value >> FREE_BITS !== 0n) throw new Error('payment id beyond the payout id range');
  // 128-bit layout: 48 bits | version 4 (4) | 12 bits | variant 10 (2) | 62 bits.
  const high = value >> 74n;
  const middle = (value >> 62n) & 0xfffn;
  const low = value & ((1n << 62n) - 1n);
  const bits = (high << 80n) | (4n << 76n) | (middle << 64n) | (2n << 62n) | low;
  const hex = bits.toString(16).padStart(32, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The payment id a `payoutIdOf` payoutId encodes, or undefined for any other string. Pure. */
export function paymentIdOfPayout(payoutId: string): string | undefined {
  if (!UUID_V4.test(payoutId)) return undefined;
  const bits = BigInt(`0x${payoutId.replace(/-/g, '')}`);
  const value = ((bits >> 80n) << 74n) | (((bits >> 64n) & 0xfffn) << 62n) | (bits & ((1n << 62n) - 1n));
  let text = '';
  for (let i = 25; i >= 0; i -= 1) text += CROCKFORD[Number((value >> BigInt(i * 5)) & 31n)];
  return `pay_${text}`;
}

/** pawaPay's `failureReason` (initiate payout and check payout status pages): a code and a message for developers. */
const failureReasonSchema = z.object({ failureCode: z.string().optional(), failureMessage: z.string().optional() });

/**
 * The initiation answer of `POST /v2/payouts` (https://docs.pawapay.io/v2/api-reference/payouts/initiate-payout):
 * `status` ACCEPTED, REJECTED (with `failureReason`) or DUPLICATE_IGNORED; kept a free string so an
 * undocumented one is seen, never guessed.
 */
export const initiationAnswerSchema = z.object({
  payoutId: z.string().optional(),
  status: z.string().min(1),
  failureReason: failureReasonSchema.optional(),
});

/**
 * A payout as pawaPay reports it: the `data` of a FOUND status answer
 * (https://docs.pawapay.io/v2/api-reference/payouts/check-payout-status) and the body of a payout
 * callback (https://docs.pawapay.io/v2/api-reference/payouts/payout-callback). `amount` is a decimal
 * string in `currency`; unknown fields are ignored; `status` stays free (an undocumented one is a finding).
 */
export const payoutRecordSchema = z.object({
  payoutId: z.string().min(1),
  status: z.string().min(1),
  amount: z.string().optional(),
  currency: z.string().optional(),
  country: z.string().optional(),
  providerTransactionId: z.string().optional(),
  failureReason: failureReasonSchema.optional(),
});

/** A pawaPay payout record (see payoutRecordSchema). */
export type PawapayPayoutRecord = z.infer<typeof payoutRecordSchema>;

/** The check payout status answer: FOUND with the payout, or NOT_FOUND (pawaPay has no payout under the id). */
export const statusAnswerSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('FOUND'), data: payoutRecordSchema }),
  z.object({ status: z.literal('NOT_FOUND') }),
]);

/** The JSON value of `text`, or undefined when it is not JSON (so a schema then refuses it). */
export function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The issuer-facing reason of a failed payout, from pawaPay's failure code (never its free-text message). */
export function failureReasonOf(code: string | undefined): string {
  return `pawaPay: the payout failed (${providerWord(code ?? 'UNSPECIFIED').replace(/[^A-Z0-9_]/gi, '').slice(0, 64)})`;
}

/**
 * Our outcome of a payout record (docs/decisions.md § Payments: states and events). pawaPay's v2
 * payout statuses (check payout status page; payouts guide https://docs.pawapay.io/v2/docs/payouts):
 * COMPLETED → succeeded; FAILED → failed with its failureCode mapped; ACCEPTED, ENQUEUED (the
 * provider is down, pawaPay holds it), PROCESSING and IN_RECONCILIATION (pawaPay is still settling
 * its outcome with the provider) → pending, asked again after `pollIntervalMs`. Any other status
 * (v1's SUBMITTED included) never finalises a payment: pending with it as the unknown status.
 * pawaPay has no reversal status for payouts, so this never answers `refunded`.
 */
export function outcomeOfRecord(record: PawapayPayoutRecord, pollIntervalMs: number): Exclude<StatusOutcome, { kind: 'not_found' }> {
  switch (record.status) {
    case 'COMPLETED':
      return { kind: 'succeeded', providerRef: record.payoutId };
    case 'FAILED': {
      const code = record.failureReason?.failureCode;
      return { kind: 'failed', reason: failureReasonOf(code), code: pawapayFailureCode(code) };
    }
    case 'ACCEPTED':
    case 'ENQUEUED':
    case 'PROCESSING':
    case 'IN_RECONCILIATION':
      return { kind: 'pending', afterMs: pollIntervalMs, providerRef: record.payoutId };
    default:
      return { kind: 'pending', afterMs: pollIntervalMs, providerRef: record.payoutId, unknownStatus: record.status };
  }
}
