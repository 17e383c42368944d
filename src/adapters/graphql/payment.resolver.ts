import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { PaymentListFilter } from '../../core/payments/list-payments';
import type { PaymentView } from '../../core/payments/payment-view';
import { MONEY_OUT_ERRORS, MoneyOutBody } from '../contract/payment.contract';
import type { GraphqlContext } from './graphql-context';
import { LIST_ERRORS, parseInput, READ_ERRORS, valueOf } from './graphql-errors';
import { CreateMoneyOutPayload, MoneyOutInput, PaymentFilterInput } from './payment.input';
import { PaymentConnectionType, PaymentType } from './payment.type';

const DEFAULT_PAGE = 20;

/**
 * Payment reads and the money-out write. Thin: each field calls one use case of the
 * bound Application, as REST does, and maps its error codes through an exhaustive Record.
 */
@Resolver()
export class PaymentResolver {
  /** One payment of the caller's tenant. Errors: not_found (also another tenant's id). */
  @Query(() => PaymentType, { description: 'One payment of yours (REST: GET /v1/payments/{id})' })
  async payment(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphqlContext): Promise<PaymentView> {
    return valueOf(await ctx.app.getPayment(ctx.tenantId, id), READ_ERRORS);
  }

  /** The caller's payments, newest first. Errors: validation_error (first outside 1..100, bad cursor or filter). */
  @Query(() => PaymentConnectionType, { description: 'Your payments, newest first (Relay connection; first: 1..100)' })
  async payments(
    @Ctx() ctx: GraphqlContext,
    @Arg('first', () => Int, { defaultValue: DEFAULT_PAGE }) first: number,
    @Arg('after', () => String, { nullable: true }) after?: string | null,
    @Arg('filter', () => PaymentFilterInput, { nullable: true }) filter?: PaymentFilterInput | null,
  ): Promise<PaymentConnectionType> {
    const page = valueOf(await ctx.app.listPayments(ctx.tenantId, {
      first, ...(after != null ? { after } : {}), ...(filter ? { filter: listFilter(filter) } : {}),
    }), LIST_ERRORS);
    return {
      edges: page.entries.map((e) => ({ node: e.node, cursor: e.cursor })),
      pageInfo: {
        hasNextPage: page.hasNextPage, hasPreviousPage: false,
        startCursor: page.entries[0]?.cursor ?? null, endCursor: page.endCursor ?? null,
      },
    };
  }

  /**
   * Creates a money-out with REST's rules and idempotency store: the same key through REST or
   * GraphQL is the same request (a replay answers `replayed: true`). Errors: the REST codes.
   */
  @Mutation(() => CreateMoneyOutPayload, { description: 'Create a money-out (REST: POST /v1/payments/moneyout); idempotencyKey is a UUID shared with REST' })
  async createMoneyOut(
    @Arg('input', () => MoneyOutInput) input: MoneyOutInput,
    @Arg('idempotencyKey', () => String) idempotencyKey: string,
    @Ctx() ctx: GraphqlContext,
  ): Promise<CreateMoneyOutPayload> {
    const command = parseInput(MoneyOutBody, { ...input }, 'input');
    const outcome = valueOf(await ctx.app.createMoneyOut(ctx.tenantId, idempotencyKey, command), MONEY_OUT_ERRORS);
    return { payment: outcome.payment, replayed: outcome.replayed };
  }
}

function listFilter(input: PaymentFilterInput): PaymentListFilter {
  return {
    ...(input.status ? { status: input.status } : {}),
    ...(input.paymentMethod ? { paymentMethod: input.paymentMethod } : {}),
    ...(input.destinationCurrency ? { destinationCurrency: input.destinationCurrency } : {}),
    ...(input.country ? { country: input.country } : {}),
    ...(input.reference != null ? { reference: input.reference } : {}),
    ...(input.createdFrom ? { createdFrom: input.createdFrom } : {}),
    ...(input.createdTo ? { createdTo: input.createdTo } : {}),
  };
}
