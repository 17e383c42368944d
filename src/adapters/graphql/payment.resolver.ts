import { Arg, Args, ArgsType, Ctx, Field, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { PaymentListFilter, PaymentPage } from '../../core/payments/list-payments';
import type { PaymentView } from '../../core/payments/payment-view';
import { PaymentListFilterFields } from '../contract/payment-list.contract';
import { MONEY_OUT_ERRORS, MoneyOutBody } from '../contract/payment.contract';
import type { Connection } from './connection.type';
import type { GraphqlContext } from './graphql-context';
import { LIST_ERRORS, parseInput, READ_ERRORS, valueOf } from './graphql-errors';
import { BidirectionalPageArgs, pageRequest } from './list-page';
import { CreateMoneyOutPayload, MoneyOutInput, PaymentFilterInput } from './payment.input';
import { PaymentConnectionType, PaymentType } from './payment.type';

/** Arguments of `payments`: the page of every connection, backward paging too, and the filters. */
@ArgsType()
export class PaymentsArgs extends BidirectionalPageArgs {
  @Field(() => PaymentFilterInput, { nullable: true, description: 'Only the payments that pass every given filter' })
  filter?: PaymentFilterInput | null;
}

/**
 * Payment reads and the money-out write. Thin: each field calls one use case of the
 * bound Application, as REST does, and maps its error codes through an exhaustive Record.
 */
@Resolver()
export class PaymentResolver {
  /**
   * One payment of the caller's tenant, or null with the error in `errors`. Errors: not_found
   * (also another tenant's id).
   */
  @Query(() => PaymentType, {
    nullable: true,
    description: 'One payment of yours (REST: GET /v1/payments/{id}); null with a not_found error in errors when you have none with this id',
  })
  async payment(@Arg('id', () => ID, { description: 'pay_-prefixed id' }) id: string, @Ctx() ctx: GraphqlContext): Promise<PaymentView> {
    return valueOf(await ctx.app.getPayment(ctx.tenantId, id), READ_ERRORS);
  }

  /**
   * The caller's payments, newest first, paged forward (`first`/`after`) or backward
   * (`last`/`before`). Errors: validation_error (a page size outside 1..100, a cursor not of this
   * list, both directions at once, a filter out of range).
   */
  @Query(() => PaymentConnectionType, {
    description: 'Your payments, newest first (REST: GET /v1/payments); first: 1..100, default 50, or last/before to page back towards the newest',
  })
  async payments(@Args(() => PaymentsArgs) args: PaymentsArgs, @Ctx() ctx: GraphqlContext): Promise<Connection<PaymentView>> {
    const { size, direction, cursor } = pageRequest(args);
    const page = valueOf(await ctx.app.listPayments(ctx.tenantId, {
      first: size, direction,
      ...(cursor !== undefined ? (direction === 'backward' ? { before: cursor } : { after: cursor }) : {}),
      ...(args.filter ? { filter: listFilter(args.filter) } : {}),
    }), LIST_ERRORS);
    return paymentConnection(page);
  }

  /**
   * Creates a money-out with REST's rules and idempotency store: the same key through REST or
   * GraphQL is the same request (a replay answers `replayed: true`). Errors: the REST codes.
   */
  @Mutation(() => CreateMoneyOutPayload, { description: 'Create a money-out (REST: POST /v1/payments/moneyout); idempotencyKey is a UUID shared with REST' })
  async createMoneyOut(
    @Arg('input', () => MoneyOutInput, { description: 'The payout, as REST takes it' }) input: MoneyOutInput,
    @Arg('idempotencyKey', () => String, { description: 'A new UUID per payout, reused only to retry it (REST: Idempotency-Key)' }) idempotencyKey: string,
    @Ctx() ctx: GraphqlContext,
  ): Promise<CreateMoneyOutPayload> {
    const command = parseInput(MoneyOutBody, { ...input }, 'input');
    const outcome = valueOf(await ctx.app.createMoneyOut(ctx.tenantId, idempotencyKey, command), MONEY_OUT_ERRORS);
    return { payment: outcome.payment, replayed: outcome.replayed };
  }
}

/** A page of the core's payment list as a connection. Pure. */
function paymentConnection(page: PaymentPage): Connection<PaymentView> {
  const edges = page.entries.map((e) => ({ node: e.node, cursor: e.cursor }));
  return {
    edges,
    nodes: edges.map((e) => e.node),
    pageInfo: {
      hasNextPage: page.hasNextPage, hasPreviousPage: page.hasPreviousPage,
      startCursor: edges[0]?.cursor ?? null, endCursor: edges[edges.length - 1]?.cursor ?? null,
    },
  };
}

function listFilter(input: PaymentFilterInput): PaymentListFilter {
  return {
    ...(input.status ? { status: input.status } : {}),
    ...(input.paymentMethod ? { paymentMethod: input.paymentMethod } : {}),
    ...(input.destinationCurrency ? { destinationCurrency: input.destinationCurrency } : {}),
    ...(input.country ? { country: input.country } : {}),
    ...(input.reference != null ? { reference: parseInput(PaymentListFilterFields.reference, input.reference, 'filter.reference') } : {}),
    ...(input.createdFrom ? { createdFrom: input.createdFrom } : {}),
    ...(input.createdTo ? { createdTo: input.createdTo } : {}),
  };
}
