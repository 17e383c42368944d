import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { StatusOutcome } from '../../../core/payments/payout-provider';

/**
 * The `X-Reference-Id` of a payment's transfer: a UUID derived from our payment id alone, so every
 * submission of one payment is the same transfer at MTN (docs/decisions.md § Idempotency). MTN
 * refuses a reference that is not "UUID V4 format" (MoMo common errors, 400), so the SHA-256 of the
 * id is shaped as version 4 (version nibble 4, RFC 4122 variant): still deterministic, and 122
 * bits make a collision between two payments negligible.
 */
export function transferReferenceOf(paymentId: string): string {
  const bytes = createHash('sha256').update(`mtn_momo:transfer:${paymentId}`).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * MTN's `reason` on a FAILED transfer: MTN's community pages show a string (`"NOT_ENOUGH_FUNDS"`),
 * the Java SDK also models `{code, message}`; both are accepted and reduced to the code.
 */
const reasonSchema = z.union([
  z.string(),
  z.object({ code: z.string().optional(), message: z.string().optional() }).transform((r) => r.code ?? r.message ?? 'UNSPECIFIED'),
]);

/**
 * The body of `GET /disbursement/v1_0/transfer/{referenceId}` (200), also the callback's body (MoMo
 * callback page: "similar to the response returned by the status check API"). Unknown fields are
 * ignored; `status` stays a free string so a value MTN does not document is kept as pending.
 */
export const transferRecordSchema = z.object({
  amount: z.union([z.string(), z.number()]).transform(String).optional(),
  currency: z.string().optional(),
  financialTransactionId: z.string().optional(),
  externalId: z.string().optional(),
  payee: z.object({ partyIdType: z.string().optional(), partyId: z.string().optional() }).optional(),
  status: z.string().min(1),
  reason: reasonSchema.optional(),
});

/** A transfer as MTN reports it: amount a decimal string in `currency`, `reason` the failure code. */
export type MtnMomoTransferRecord = z.infer<typeof transferRecordSchema>;

/** MTN's error body `{code, message}` (Java SDK `Reason`); other shapes are read as having no code. */
const errorBodySchema = z.object({ code: z.string().optional(), message: z.string().optional() });

/** The JSON value of `text`, or undefined when it is not JSON (so a schema then refuses it). */
export function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The error code of an MTN error response body, or undefined when it has none we can read. */
export function errorCodeOf(body: string): string | undefined {
  const parsed = errorBodySchema.safeParse(jsonOrUndefined(body));
  return parsed.success ? parsed.data.code : undefined;
}

/** Failure reasons MTN documents for transfers (MoMo "failure reasons" pages), worded for the issuer. */
const REASON_TEXT: Record<string, string> = {
  NOT_ENOUGH_FUNDS: 'insufficient funds or the receiver\'s transaction limit exceeded',
  PAYEE_NOT_FOUND: 'the recipient number is not registered for Mobile Money',
  PAYEE_NOT_ALLOWED_TO_RECEIVE: 'the recipient wallet cannot receive funds',
  NOT_ALLOWED: 'the transfer is not allowed for this account',
  INTERNAL_PROCESSING_ERROR: 'MTN could not process the transfer',
  COULD_NOT_PERFORM_TRANSACTION: 'MTN could not perform the transaction in time',
  SENDER_ACCOUNT_NOT_ACTIVE: 'the paying wallet is not active',
  TRANSACTION_NOT_FOUND: 'MTN could not find the transaction',
};

/** The issuer-facing reason of a failed transfer, from MTN's reason code (any code: unknown ones are named as is). */
export function failureReasonOf(code: string | undefined): string {
  const key = code ?? 'UNSPECIFIED';
  const text = REASON_TEXT[key] ?? 'the transfer failed at MTN MoMo';
  return `MTN MoMo: ${text} (${key.replace(/[^A-Z0-9_ ]/gi, '').slice(0, 64)})`;
}

/**
 * Our outcome of a transfer record (docs/decisions.md § Payments: states and events). MTN documents
 * three statuses ("the result can either be SUCCESSFUL, FAILED, or PENDING",
 * https://momodevelopercommunity.mtn.com/product-updates, "MoMo API Error response enrichment"):
 * SUCCESSFUL → succeeded, FAILED → failed with its reason, PENDING → pending, asked again after
 * `pollIntervalMs`. Any other status (third-party copies mention REJECTED, TIMEOUT, ONGOING) never
 * finalises a payment: pending, with the status as its unknown status (a reconciliation finding).
 * MTN has no reversal status for transfers, so this never answers `refunded`. `providerRef` is the
 * transfer's referenceId.
 */
export function outcomeOfRecord(
  record: MtnMomoTransferRecord,
  referenceId: string,
  pollIntervalMs: number,
): Exclude<StatusOutcome, { kind: 'not_found' }> {
  switch (record.status) {
    case 'SUCCESSFUL':
      return { kind: 'succeeded', providerRef: referenceId };
    case 'FAILED':
      return { kind: 'failed', reason: failureReasonOf(record.reason) };
    case 'PENDING':
      return { kind: 'pending', afterMs: pollIntervalMs, providerRef: referenceId };
    default:
      return { kind: 'pending', afterMs: pollIntervalMs, providerRef: referenceId, unknownStatus: record.status };
  }
}
