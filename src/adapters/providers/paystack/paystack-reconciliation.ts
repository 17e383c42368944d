import { z } from 'zod';
import type { StatusOutcome } from '../../../core/payments/payout-provider';
import { Decimal } from '../../../core/shared/money';
import { paystackMessage, type PaystackClient } from './paystack-client';
import { outcomeOfTransfer, paymentIdOf, paystackTransfer } from './paystack-transfers';

/** One transfer of ours as Paystack lists it. */
export interface PaystackListedTransfer {
  /** Our payment id (`pay_…`), recovered from the transfer reference. */
  readonly paymentId: string;
  /** Paystack's transfer code (`TRF_…`). */
  readonly providerRef: string;
  /** What the transfer's status means for the payment (as `status()` would answer). */
  readonly outcome: Exclude<StatusOutcome, { kind: 'not_found' }>;
  /** Paystack's own status text (`success`, `failed`, `reversed`, `pending`, …). */
  readonly providerStatus: string;
  /** Amount, decimal string at scale 2 in `currency` (Paystack's integer subunits / 100). */
  readonly amount: string;
  readonly currency: string;
  /** When Paystack created the transfer (ISO 8601), when it says. */
  readonly createdAt?: string;
}

/** The transfers listed between two instants: ours, and how many others (references not ours) were skipped. */
export interface PaystackTransferList {
  readonly transfers: readonly PaystackListedTransfer[];
  readonly othersSkipped: number;
}

/** `meta` of a list answer: page numbers (official OpenAPI `TransferListResponse.meta`). */
const listAnswer = z.object({
  status: z.literal(true),
  data: z.array(z.unknown()),
  meta: z.object({ page: z.coerce.number().int(), pageCount: z.coerce.number().int() }),
});

/** Page size asked for; the OpenAPI names it `per_page`, the guides `perPage`, so both are sent. */
const PER_PAGE = 100;
/** A guard against a listing that never ends: 100 000 transfers per call. */
const MAX_PAGES = 1_000;

/**
 * Every transfer `GET /transfer?from=&to=` lists (official OpenAPI `transfer_list`; `from` and `to`
 * are date-times, sent as ISO 8601 UTC), page by page until `meta.pageCount`. Whether the bounds are
 * inclusive is not documented: callers should overlap their windows. An item whose reference is
 * ours but whose body cannot be read fails the whole listing (a reconciliation must not silently
 * miss a payment). Errors: `reason` when a page cannot be read.
 */
export async function listPaystackTransfers(
  client: PaystackClient, from: Date, to: Date,
): Promise<{ ok: true; value: PaystackTransferList } | { ok: false; reason: string }> {
  const transfers: PaystackListedTransfer[] = [];
  let othersSkipped = 0;
  for (let page = 1; page <= MAX_PAGES; page += 1) {
    const call = await client.send({
      method: 'GET', path: '/transfer',
      query: { from: from.toISOString(), to: to.toISOString(), page, perPage: PER_PAGE, per_page: PER_PAGE },
    });
    if (call.kind !== 'answer') return { ok: false, reason: `transfer list page ${page}: ${call.reason}` };
    const parsed = listAnswer.safeParse(call.body);
    if (call.httpStatus !== 200 || !parsed.success) {
      return { ok: false, reason: `transfer list page ${page}: HTTP ${call.httpStatus}: ${paystackMessage(call.httpStatus, call.body)}` };
    }
    for (const item of parsed.data.data) {
      const reference = z.object({ reference: z.string() }).safeParse(item);
      const paymentId = reference.success ? paymentIdOf(reference.data.reference) : undefined;
      if (!paymentId) {
        othersSkipped += 1;
        continue;
      }
      const transfer = paystackTransfer.safeParse(item);
      if (!transfer.success) return { ok: false, reason: `transfer list page ${page}: unreadable transfer for ${paymentId}` };
      const data = transfer.data;
      const createdAt = data.createdAt ?? data.created_at;
      transfers.push({
        paymentId,
        providerRef: data.transfer_code,
        outcome: outcomeOfTransfer(data),
        providerStatus: data.status,
        amount: new Decimal(data.amount).div(100).toFixed(2),
        currency: data.currency,
        ...(createdAt ? { createdAt } : {}),
      });
    }
    if (parsed.data.data.length === 0 || page >= parsed.data.meta.pageCount) return { ok: true, value: { transfers, othersSkipped } };
  }
  return { ok: false, reason: `transfer list longer than ${MAX_PAGES} pages: narrow the window` };
}
