import { z } from 'zod';
import type { StatusOutcome } from '../../../core/payments/payout-provider';
import { Decimal, scaleOf, FIAT_CURRENCIES, type FiatCurrency } from '../../../core/shared/money';
import { flutterwaveMessage, type FlutterwaveClient } from './flutterwave-client';
import { flutterwaveTransfer, outcomeOfTransfer, paymentIdOf } from './flutterwave-transfers';

/** One transfer of ours as Flutterwave lists it. */
export interface FlutterwaveListedTransfer {
  /** Our payment id (`pay_…`): the transfer reference. */
  readonly paymentId: string;
  /** Flutterwave's transfer id, as a string. */
  readonly providerRef: string;
  /** What the transfer's status means for the payment (as `status()` would answer). */
  readonly outcome: Exclude<StatusOutcome, { kind: 'not_found' }>;
  /** Flutterwave's own status word (`NEW`, `PENDING`, `SUCCESSFUL`, `FAILED`, …). */
  readonly providerStatus: string;
  /** Amount, decimal string in `currency` at its scale (Flutterwave's major-unit number). */
  readonly amount: string;
  readonly currency: string;
  /** When Flutterwave created the transfer (ISO 8601), when it says. */
  readonly createdAt?: string;
}

/** The transfers listed between two instants: ours, and how many others (references not ours) were skipped. */
export interface FlutterwaveTransferList {
  readonly transfers: readonly FlutterwaveListedTransfer[];
  readonly othersSkipped: number;
}

/** A list answer: `meta.page_info` with `total_pages` (Flutterwave/Node-v3 documentation/transfers.md, "Get all transfers"). */
const listAnswer = z.object({
  status: z.literal('success'),
  data: z.array(z.unknown()),
  meta: z.object({ page_info: z.object({ current_page: z.coerce.number().int(), total_pages: z.coerce.number().int() }) }),
});
/** A guard against a listing that never ends. */
const MAX_PAGES = 1_000;

/**
 * Every transfer `GET /v3/transfers?from=&to=&page=` lists (the list endpoint; `from`, `to` and
 * `page` are the query fields of the official Node SDK's list schema), page by page until
 * `meta.page_info.total_pages`. `from` and `to` are sent as dates (YYYY-MM-DD, UTC), so whole days
 * are asked and items whose `created_at` falls outside [from, to] are dropped here. An item whose
 * reference is ours but whose body cannot be read fails the whole listing (a reconciliation must
 * not silently miss a payment). Errors: `reason` when a page cannot be read.
 */
export async function listFlutterwaveTransfers(
  client: FlutterwaveClient, from: Date, to: Date,
): Promise<{ ok: true; value: FlutterwaveTransferList } | { ok: false; reason: string }> {
  const transfers: FlutterwaveListedTransfer[] = [];
  let othersSkipped = 0;
  for (let page = 1; page <= MAX_PAGES; page += 1) {
    const call = await client.send({
      method: 'GET', path: '/v3/transfers', query: { from: dateOf(from), to: dateOf(to), page },
    });
    if (call.kind !== 'answer') return { ok: false, reason: `transfer list page ${page}: ${call.reason}` };
    const parsed = listAnswer.safeParse(call.body);
    if (call.httpStatus !== 200 || !parsed.success) {
      return { ok: false, reason: `transfer list page ${page}: HTTP ${call.httpStatus}: ${flutterwaveMessage(call.httpStatus, call.body)}` };
    }
    for (const item of parsed.data.data) {
      const reference = z.object({ reference: z.string() }).safeParse(item);
      const paymentId = reference.success ? paymentIdOf(reference.data.reference) : undefined;
      if (!paymentId) {
        othersSkipped += 1;
        continue;
      }
      const transfer = flutterwaveTransfer.safeParse(item);
      if (!transfer.success) return { ok: false, reason: `transfer list page ${page}: unreadable transfer for ${paymentId}` };
      const data = transfer.data;
      const created = data.created_at ? Date.parse(data.created_at) : Number.NaN;
      if (!Number.isNaN(created) && (created < from.getTime() || created > to.getTime())) continue;
      const currency = data.currency as FiatCurrency;
      const scale = (FIAT_CURRENCIES as readonly string[]).includes(currency) ? scaleOf(currency) : 2;
      transfers.push({
        paymentId,
        providerRef: String(data.id),
        outcome: outcomeOfTransfer(data),
        providerStatus: data.status,
        amount: new Decimal(data.amount).toFixed(scale),
        currency: data.currency,
        ...(data.created_at ? { createdAt: data.created_at } : {}),
      });
    }
    if (parsed.data.data.length === 0 || page >= parsed.data.meta.page_info.total_pages) return { ok: true, value: { transfers, othersSkipped } };
  }
  return { ok: false, reason: `transfer list longer than ${MAX_PAGES} pages: narrow the window` };
}

function dateOf(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}
