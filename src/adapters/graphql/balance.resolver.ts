import { Args, Ctx, Query, Resolver } from 'type-graphql';
import type { BalanceView, LedgerTransactionView } from '../../core/ledger/ledger';
import type { Connection } from './connection.type';
import { BalanceType, LedgerTransactionConnectionType } from './balance.type';
import type { GraphqlContext } from './graphql-context';
import { connectionOf, cursorAsAfter, PageArgs, restPage } from './list-page';
import { LIST_ERRORS, valueOf } from './graphql-errors';

/**
 * Balance reads (docs/decisions.md § Ledger and § GraphQL): the same use cases and page rules as REST's
 * Balances tag. Thin: one Application call per field, always for the caller's tenant.
 */
@Resolver()
export class BalanceResolver {
  /** One Balance per stablecoin, equal to REST GET /v1/balances (Decimal strings, scale 6). No errors of its own. */
  @Query(() => [BalanceType], { description: "Your stablecoin balances, one per stablecoin (REST: GET /v1/balances)" })
  async balances(@Ctx() ctx: GraphqlContext): Promise<BalanceView[]> {
    return ctx.app.getBalances(ctx.tenantId);
  }

  /**
   * One page of the tenant's ledger transactions, newest first, the page REST GET
   * /v1/balances/transactions?limit=first&cursor=after answers. Errors: validation_error (first
   * outside 1..100, after longer than 200 characters or not a cursor of this list).
   */
  @Query(() => LedgerTransactionConnectionType, { description: 'Your ledger transactions, newest first (REST: GET /v1/balances/transactions; first: 1..100, default 50)' })
  async balanceTransactions(
    @Ctx() ctx: GraphqlContext,
    @Args(() => PageArgs) page: PageArgs,
  ): Promise<Connection<LedgerTransactionView>> {
    const { limit, cursor } = restPage(page);
    return connectionOf(valueOf(cursorAsAfter(await ctx.app.listLedgerTransactions(ctx.tenantId, limit, cursor)), LIST_ERRORS));
  }
}
