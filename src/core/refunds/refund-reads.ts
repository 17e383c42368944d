import type { PaymentStatus } from '../payments/payment';
import type { KeysetPage } from '../shared/keyset-page';
import { formatAmount } from '../shared/money';
import { err, ok, type Result } from '../shared/result';
import type { OnchainRefund, RefundStatus } from './onchain-refund';

/** Largest page of the tenant's refund list (REST `limit`), and most payments whose refunds are read at once. */
export const MAX_REFUND_PAGE = 100;

/**
 * A refund as its issuer sees it (OpenAPI listTenantRefunds and the payment's `refund`; GraphQL
 * `Payment.refund`; docs/decisions.md § Refunds): `amount` a decimal string at scale 6 in
 * `currency`, sent on `blockchain` to `refundAddress`; `txHash` the transaction hash (BSC) or
 * signature (Solana) once known; times ISO 8601 UTC, `sentAt` when it was final onchain or an
 * operator recorded it sent. Nothing operators alone see (attempts, who acted).
 */
export interface IssuerRefundView {
  readonly id: string;
  readonly paymentId: string;
  readonly amount: string;
  readonly currency: OnchainRefund['currency'];
  readonly blockchain: OnchainRefund['blockchain'];
  readonly refundAddress: string;
  readonly status: RefundStatus;
  readonly txHash: string | null;
  readonly createdAt: string;
  readonly sentAt: string | null;
}

/** The issuer's view of `refund`. Pure. */
export function toIssuerRefundView(refund: OnchainRefund): IssuerRefundView {
  return {
    id: refund.id, paymentId: refund.paymentId, amount: formatAmount(refund.amount, refund.currency), currency: refund.currency,
    blockchain: refund.blockchain, refundAddress: refund.refundAddress, status: refund.status, txHash: refund.txHash,
    createdAt: refund.createdAt.toISOString(), sentAt: refund.sentAt?.toISOString() ?? null,
  };
}

/**
 * Whether a payment in `status` may owe a refund: only one that ended `failed` or `refunded` (a
 * refund is written in the same transaction as that move, docs/decisions.md § Ledger), so reads of
 * other payments need not look one up. Pure.
 */
export function mayOweRefund(status: PaymentStatus): boolean {
  return status === 'failed' || status === 'refunded';
}

/** One page request of the tenant's refunds: `limit` 1..100, `cursor` from the previous page, `status` any of these (all when absent or empty). */
export interface TenantRefundQuery {
  readonly limit: number;
  readonly cursor?: string;
  readonly status?: readonly RefundStatus[];
}

/** Port: one tenant's refunds, read outside transactions; another tenant's never appear. */
export interface TenantRefundReader {
  /**
   * The tenant's refunds, newest first (created_at, then id), keyset-paginated; `bad_cursor` when
   * `cursor` is not one this port issued.
   */
  listForTenant(tenantId: string, query: TenantRefundQuery): Promise<KeysetPage<OnchainRefund> | 'bad_cursor'>;
  /** The refunds of those of `paymentIds` that are the tenant's and have one (at most one each), in any order: one query. */
  forPayments(tenantId: string, paymentIds: readonly string[]): Promise<OnchainRefund[]>;
}

/**
 * The caller's refunds, newest first (OpenAPI listTenantRefunds; docs/decisions.md § Refunds).
 * Errors: `validation_error` when `limit` is not an integer from 1 to 100 (field `limit`) or the
 * cursor is not one this list issued (field `cursor`).
 */
export async function listTenantRefunds(
  deps: { tenantRefunds: TenantRefundReader }, tenantId: string, query: TenantRefundQuery,
): Promise<Result<KeysetPage<IssuerRefundView>, 'validation_error'>> {
  if (!Number.isInteger(query.limit) || query.limit < 1 || query.limit > MAX_REFUND_PAGE) {
    return err('validation_error', `limit must be an integer from 1 to ${MAX_REFUND_PAGE}`, { field: 'limit' });
  }
  const page = await deps.tenantRefunds.listForTenant(tenantId, query);
  if (page === 'bad_cursor') return err('validation_error', 'cursor is not valid', { field: 'cursor' });
  return ok({ ...page, entries: page.entries.map(toIssuerRefundView) });
}

/**
 * The refund of each of `payments` (the caller's, as just read: id and status), in the same order:
 * null where the payment owes none (or is not the caller's). One read for all of those that may owe
 * one (`mayOweRefund`), none when no payment may, so a page of payments costs at most one query
 * (REST lists, GraphQL's batched `Payment.refund`). Errors: `validation_error` when more than 100
 * payments are asked about at once.
 */
export async function paymentRefunds(
  deps: { tenantRefunds: TenantRefundReader }, tenantId: string, payments: ReadonlyArray<{ readonly id: string; readonly status: PaymentStatus }>,
): Promise<Result<Array<IssuerRefundView | null>, 'validation_error'>> {
  if (payments.length > MAX_REFUND_PAGE) return err('validation_error', `at most ${MAX_REFUND_PAGE} payments at once`, { field: 'paymentIds' });
  const asked = payments.filter((p) => mayOweRefund(p.status)).map((p) => p.id);
  const byPayment = new Map(asked.length === 0 ? [] : (await deps.tenantRefunds.forPayments(tenantId, asked)).map((r) => [r.paymentId, r]));
  return ok(payments.map(({ id }) => {
    const refund = byPayment.get(id);
    return refund ? toIssuerRefundView(refund) : null;
  }));
}
