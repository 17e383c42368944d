import type { KeysetPage } from '../shared/keyset-page';
import { err, ok, type Result } from '../shared/result';
import { toDepositView, toFindingView, type DepositFindingView, type DepositView } from './deposit';
import type { DepositFindingReader, DepositListFilter, DepositReader } from './deposit-ports';

/** Largest page of a deposit list (REST `limit`, GraphQL `first`). */
export const MAX_DEPOSIT_PAGE = 100;

/** One page request of the tenant's deposits: `limit` 1..100, `cursor` from the previous page. */
export interface DepositListQuery {
  readonly limit: number;
  readonly cursor?: string;
  readonly filter?: DepositListFilter;
}

/**
 * The caller's deposits, newest first (OpenAPI listDeposits; docs/decisions.md § Onchain
 * deposits), each with its confirmations counted against the newest head its chain's watcher saw.
 * Errors: `validation_error` when `limit` is not an integer from 1 to 100, `createdFrom` is not
 * before `createdTo`, or the cursor is not one this list issued (field `cursor`).
 */
export async function listDeposits(
  deps: { deposits: DepositReader },
  tenantId: string,
  query: DepositListQuery,
): Promise<Result<KeysetPage<DepositView>, 'validation_error'>> {
  if (!Number.isInteger(query.limit) || query.limit < 1 || query.limit > MAX_DEPOSIT_PAGE) {
    return err('validation_error', `limit must be an integer from 1 to ${MAX_DEPOSIT_PAGE}`, { field: 'limit' });
  }
  const filter = query.filter ?? {};
  if (filter.createdFrom && filter.createdTo && filter.createdFrom.getTime() >= filter.createdTo.getTime()) {
    return err('validation_error', 'createdFrom must be before createdTo', { field: 'createdFrom' });
  }
  const [page, heads] = await Promise.all([deps.deposits.listForTenant(tenantId, query.limit, filter, query.cursor), deps.deposits.heads()]);
  if (page === 'bad_cursor') return err('validation_error', 'cursor is not valid', { field: 'cursor' });
  return ok({ ...page, entries: page.entries.map((d) => toDepositView(d, heads.get(d.blockchain))) });
}

/** One deposit of the caller (OpenAPI getDeposit). Errors: `not_found` (also another tenant's). */
export async function getDeposit(deps: { deposits: DepositReader }, tenantId: string, depositId: string): Promise<Result<DepositView, 'not_found'>> {
  const [deposit, heads] = await Promise.all([deps.deposits.findForTenant(tenantId, depositId), deps.deposits.heads()]);
  return deposit ? ok(toDepositView(deposit, heads.get(deposit.blockchain))) : err('not_found', 'Deposit not found');
}

/** Findings for operators, newest first, at most `limit` (docs/decisions.md § Onchain deposits). */
export async function listDepositFindings(deps: { findings: DepositFindingReader }, limit: number): Promise<DepositFindingView[]> {
  return (await deps.findings.listFindings(limit)).map(toFindingView);
}
