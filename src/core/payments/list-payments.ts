import type { CountryCode, PaymentMethod } from '../catalog/catalog';
import type { FiatCurrency } from '../shared/money';
import { err, ok, type Result } from '../shared/result';
import type { Payment, PaymentStatus } from './payment';
import { toPaymentView, type PaymentView } from './payment-view';

/** Largest page a caller may ask for (the GraphQL `payments` connection). */
export const MAX_PAYMENT_PAGE = 100;
/** Longest `reference` filter, the column's length (MONEY_OUT_LIMITS.reference). */
const MAX_REFERENCE = 128;

/**
 * Filters of a payment list; every member is optional and they combine with AND. List members
 * match any of their values; an empty list is the same as no filter. `createdFrom` is inclusive,
 * `createdTo` exclusive.
 */
export interface PaymentListFilter {
  readonly status?: readonly PaymentStatus[];
  readonly paymentMethod?: readonly PaymentMethod[];
  readonly destinationCurrency?: readonly FiatCurrency[];
  /** The recipient's country (ISO 3166-1 alpha-2). */
  readonly country?: readonly CountryCode[];
  /** Exact match on the caller's own reference. */
  readonly reference?: string;
  readonly createdFrom?: Date;
  readonly createdTo?: Date;
}

/**
 * One page request. Forward (the default): the `first` rows just older than the cursor `after`
 * (from the start without it). Backward (Relay's `last`/`before`): the `first` rows just newer
 * than the cursor `before` (the oldest rows without it). Either way the page is newest first.
 */
export interface PaymentListQuery {
  /** Page size, 1 to MAX_PAYMENT_PAGE. */
  readonly first: number;
  /** Forward only: cursor of the last row of the previous page (from a page's `endCursor`). */
  readonly after?: string;
  /** Paging direction; forward when absent. */
  readonly direction?: 'forward' | 'backward';
  /** Backward only: cursor of the first row of the next page (from a page's `startCursor`). */
  readonly before?: string;
  readonly filter?: PaymentListFilter;
}

/** A page of payments as the port returns it, newest first: each row with the cursor that resumes after it. */
export interface PaymentRowPage {
  readonly entries: ReadonlyArray<{ readonly payment: Payment; readonly cursor: string }>;
  /** Older rows than the page's last exist (that pass the filter). */
  readonly hasNextPage: boolean;
  /** Newer rows than the page's first exist (that pass the filter). */
  readonly hasPreviousPage: boolean;
}

/** A page of payment views, newest first, each with its cursor (a Relay connection's edges). */
export interface PaymentPage {
  readonly entries: ReadonlyArray<{ readonly node: PaymentView; readonly cursor: string }>;
  /** Older payments than the page's last exist. */
  readonly hasNextPage: boolean;
  /** Newer payments than the page's first exist. */
  readonly hasPreviousPage: boolean;
  /** Cursor of the last entry, undefined on an empty page. */
  readonly endCursor?: string;
}

/**
 * Port: the tenant-scoped, keyset-paginated payment list (ordered by creation time, newest
 * first, then id), in either direction. Another tenant's payments never appear. `bad_cursor` when
 * `after` or `before` is not a cursor this port issued.
 */
export interface PaymentLister {
  listForTenant(tenantId: string, query: PaymentListQuery): Promise<PaymentRowPage | 'bad_cursor'>;
}

/**
 * Lists the caller's payments, newest first (docs/decisions.md § GraphQL: the GraphQL `payments`
 * connection mirrors the REST reads). Errors: `validation_error` when `first` is not an integer
 * from 1 to 100, the reference filter is longer than 128 characters, `createdFrom` is not before
 * `createdTo`, `after` paging backward or `before` paging forward, or the cursor is not valid.
 */
export async function listPayments(
  deps: { paymentList: PaymentLister },
  tenantId: string,
  query: PaymentListQuery,
): Promise<Result<PaymentPage, 'validation_error'>> {
  if (!Number.isInteger(query.first) || query.first < 1 || query.first > MAX_PAYMENT_PAGE) {
    return err('validation_error', `first must be an integer from 1 to ${MAX_PAYMENT_PAGE}`, { field: 'first' });
  }
  const filter = query.filter ?? {};
  if (filter.reference !== undefined && filter.reference.length > MAX_REFERENCE) {
    return err('validation_error', `reference must be at most ${MAX_REFERENCE} characters`, { field: 'reference' });
  }
  if (filter.createdFrom && filter.createdTo && filter.createdFrom.getTime() >= filter.createdTo.getTime()) {
    return err('validation_error', 'createdFrom must be before createdTo', { field: 'createdFrom' });
  }
  const backward = query.direction === 'backward';
  if (backward ? query.after !== undefined : query.before !== undefined) {
    const field = backward ? 'after' : 'before';
    return err('validation_error', `${field} cannot be used when paging ${backward ? 'backward' : 'forward'}`, { field });
  }
  const page = await deps.paymentList.listForTenant(tenantId, query);
  const cursorField = backward ? 'before' : 'after';
  if (page === 'bad_cursor') return err('validation_error', `${cursorField} is not a valid cursor`, { field: cursorField });
  const entries = page.entries.map((e) => ({ node: toPaymentView(e.payment), cursor: e.cursor }));
  const last = entries[entries.length - 1];
  return ok({ entries, hasNextPage: page.hasNextPage, hasPreviousPage: page.hasPreviousPage, ...(last ? { endCursor: last.cursor } : {}) });
}
