import { Arg, Args, Ctx, ID, Query, Resolver, Root, Subscription } from 'type-graphql';
import type { DepositStatus, DepositView } from '../../core/deposits/deposit';
import type { DepositAddressView } from '../../core/deposits/deposit-addresses';
import type { DepositListFilter } from '../../core/deposits/deposit-ports';
import { DepositParams } from '../contract/deposit.contract';
import type { Connection } from './connection.type';
import { DepositAddressType, DepositConnectionType, DepositFilterInput, DepositStatusEnum, DepositType } from './deposit.type';
import { matchesDepositUpdated, type DepositUpdatedArgs, type GraphqlContext } from './graphql-context';
import { LIST_ERRORS, parseInput, READ_ERRORS, valueOf } from './graphql-errors';
import { connectionOf, cursorAsAfter, PageArgs, restPage } from './list-page';

/** The GraphQL filter as the core's (explicit nulls are no filter). Pure. */
function listFilter(filter: DepositFilterInput | null | undefined): DepositListFilter {
  if (!filter) return {};
  return {
    ...(filter.blockchain ? { blockchain: filter.blockchain } : {}),
    ...(filter.currency ? { currency: filter.currency } : {}),
    ...(filter.status ? { status: filter.status } : {}),
    ...(filter.createdFrom ? { createdFrom: filter.createdFrom } : {}),
    ...(filter.createdTo ? { createdTo: filter.createdTo } : {}),
  };
}

/**
 * Onchain deposits (docs/decisions.md § Onchain deposits and § GraphQL): REST's Deposits tag on
 * the same use cases, plus the live `depositUpdated` subscription. Thin: one Application call per
 * field, for the caller's tenant only.
 */
@Resolver()
export class DepositResolver {
  /** Equal to REST GET /v1/deposit-addresses; assigns the tenant's addresses on first read. No errors of its own. */
  @Query(() => [DepositAddressType], { description: 'Where to send USDC and USDT onchain to fund your balance, per chain and currency (REST: GET /v1/deposit-addresses)' })
  async depositAddresses(@Ctx() ctx: GraphqlContext): Promise<DepositAddressView[]> {
    return ctx.app.listDepositAddresses(ctx.tenantId);
  }

  /** One deposit, equal to REST GET /v1/deposits/{id}. Errors: not_found (also another tenant's), validation_error (id over 64 characters). */
  @Query(() => DepositType, { nullable: true, description: 'One deposit of yours (REST: GET /v1/deposits/{depositId}); null with a not_found error in errors when you have none with this id' })
  async deposit(@Arg('id', () => ID, { description: 'dep_-prefixed id' }) id: string, @Ctx() ctx: GraphqlContext): Promise<DepositView> {
    return valueOf(await ctx.app.getDeposit(ctx.tenantId, parseInput(DepositParams.shape.depositId, id, 'args.id')), READ_ERRORS);
  }

  /**
   * One page of the tenant's deposits, newest first, the page REST GET /v1/deposits answers.
   * Errors: validation_error (first outside 1..100, after not a cursor of this list, createdFrom not before createdTo).
   */
  @Query(() => DepositConnectionType, { description: 'Your onchain deposits, newest first (REST: GET /v1/deposits; first: 1..100, default 50)' })
  async deposits(
    @Ctx() ctx: GraphqlContext,
    @Args(() => PageArgs) page: PageArgs,
    @Arg('filter', () => DepositFilterInput, { nullable: true, description: 'Only deposits that pass every given filter' }) filter?: DepositFilterInput | null,
  ): Promise<Connection<DepositView>> {
    const { limit, cursor } = restPage(page);
    const result = await ctx.app.listDeposits(ctx.tenantId, { limit, ...(cursor !== undefined ? { cursor } : {}), filter: listFilter(filter) });
    return connectionOf(valueOf(cursorAsAfter(result), LIST_ERRORS));
  }

  /** Every change of the caller's deposits (detected, credited, dropped), as committed on any replica; filtered by the arguments. */
  @Subscription(() => DepositType, {
    description: 'Changes of your onchain deposits, live: detected, credited once final, dropped; optionally one deposit and/or some statuses',
    subscribe: ({ args, context }) => {
      const ctx = context as GraphqlContext;
      return ctx.depositUpdates.subscribe(ctx.tenantId, (view) => matchesDepositUpdated(args as DepositUpdatedArgs, view));
    },
  })
  depositUpdated(
    @Root() view: DepositView,
    @Arg('depositId', () => ID, { nullable: true, description: 'Only this deposit (dep_…)' }) _depositId?: string | null,
    @Arg('status', () => [DepositStatusEnum], { nullable: true, description: 'Only changes to one of these statuses' }) _status?: DepositStatus[] | null,
  ): DepositView {
    return view;
  }
}
