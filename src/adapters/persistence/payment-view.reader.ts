import DataLoader from 'dataloader';
import type { PaymentStatus } from '../../core/payments/payment';
import type { PaymentViewSource } from '../../core/payments/payment-view';

/** One payment of one tenant, as GET /v1/payments/{id} (OpenAPI getPayment) asks for it. */
export interface PaymentViewKey {
  readonly tenantId: string;
  readonly paymentId: string;
}

/**
 * Rows of the payments asked for, in any order, each with at least the columns of
 * PAYMENT_VIEWS_SQL (`id` and `tenant_id` included); a payment that does not exist, or exists under
 * another tenant, has no row.
 */
export type PaymentViewFetch = (keys: readonly PaymentViewKey[]) => Promise<Record<string, unknown>[]>;

/** Most reads one statement carries; more waiting at once go in further statements. */
export const MAX_VIEWS_PER_STATEMENT = 100;

/**
 * The columns of the public view of the payments named by two parallel arrays, `$1` the payment
 * ids and `$2` their tenants: a payment is returned only under its own tenant. Decimals as minimal
 * plain strings (trailing zeros trimmed), as PlainDecimalType reads them.
 */
export const PAYMENT_VIEWS_SQL = `select p.id, p.tenant_id, p.status, p.payment_method, p.source_currency,
  trim_scale(p.amount_stablecoin)::text as amount_stablecoin, trim_scale(p.fiat_amount)::text as fiat_amount,
  p.destination_currency, p.provider_ref, p.reference, p.created_at, p.updated_at, p.failure_reason, p.failure_code,
  trim_scale(p.exchange_rate)::text as exchange_rate, trim_scale(p.payout_fee)::text as payout_fee
  from unnest($1::text[], $2::text[]) as k(id, tenant_id) join payments p on p.id = k.id and p.tenant_id = k.tenant_id`;

/**
 * Reads of single payment views, coalesced (docs/decisions.md § Performance, "Concurrent GETs share
 * one statement"): every read asked for in one turn of the event loop, from any request and any
 * tenant, goes to PostgreSQL as one statement (at most MAX_VIEWS_PER_STATEMENT keys), run by
 * `fetch` once the turn's I/O callbacks have run (setImmediate), so a read waits for no timer and
 * a lone read costs what it did alone. Each caller gets only the row of its own (tenant, payment)
 * pair; an id holding a NUL character (which no stored id can) is not found without being sent, so
 * one caller's input can never fail another's read; a failed statement rejects every read it
 * carried, with the same error.
 */
export class CoalescedPaymentViewReader {
  private readonly loader: DataLoader<PaymentViewKey, PaymentViewSource | undefined>;

  constructor(fetch: PaymentViewFetch, maxBatchSize = MAX_VIEWS_PER_STATEMENT) {
    this.loader = new DataLoader(async (keys) => {
      // A key PostgreSQL could not even compare would fail the whole statement, and with it every
      // other request's read in the batch: it names no payment, so it is answered here. (REST and
      // GraphQL refuse NUL characters already; this keeps one caller's input from ever reaching
      // another's read should a path forget.)
      const storable = keys.filter((k) => !k.tenantId.includes('\u0000') && !k.paymentId.includes('\u0000'));
      const rows = storable.length > 0 ? await fetch(storable) : [];
      const byKey = new Map(rows.map((row) => [keyOf(String(row.tenant_id), String(row.id)), row]));
      return keys.map((key) => {
        const row = byKey.get(keyOf(key.tenantId, key.paymentId));
        return row ? viewSourceOf(row) : undefined;
      });
    }, { cache: false, maxBatchSize, batchScheduleFn: (dispatch) => setImmediate(dispatch) });
  }

  /** The view of `paymentId` when it belongs to `tenantId`, else undefined. */
  read(tenantId: string, paymentId: string): Promise<PaymentViewSource | undefined> {
    return this.loader.load({ tenantId, paymentId });
  }
}

/** No stored id holds a NUL (PostgreSQL text cannot), and keys holding one are answered before any fetch, so the pair is unambiguous. */
const keyOf = (tenantId: string, paymentId: string) => `${tenantId}\u0000${paymentId}`;

/** A row of PAYMENT_VIEWS_SQL as the view's fields (timestamps arrive as text or Date, depending on the pool's type parsers). */
function viewSourceOf(row: Record<string, unknown>): PaymentViewSource {
  const date = (v: unknown) => (v instanceof Date ? v : new Date(String(v)));
  return {
    id: String(row.id), status: row.status as PaymentStatus, paymentMethod: row.payment_method as PaymentViewSource['paymentMethod'],
    sourceCurrency: row.source_currency as PaymentViewSource['sourceCurrency'], amountStablecoin: String(row.amount_stablecoin),
    fiatAmount: String(row.fiat_amount), destinationCurrency: row.destination_currency as PaymentViewSource['destinationCurrency'],
    providerRef: (row.provider_ref ?? null) as string | null, reference: (row.reference ?? null) as string | null,
    createdAt: date(row.created_at), updatedAt: date(row.updated_at), failureReason: (row.failure_reason ?? null) as string | null,
    failureCode: (row.failure_code ?? null) as PaymentViewSource['failureCode'],
    exchangeRate: String(row.exchange_rate), payoutFee: String(row.payout_fee),
  };
}
