import DataLoader from 'dataloader';
import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { PaymentView } from '../../core/payments/payment-view';
import { mayOweRefund, type IssuerRefundView } from '../../core/refunds/refund-reads';
import type { GraphqlContext } from './graphql-context';
import { LIST_ERRORS, valueOf } from './graphql-errors';
import { PaymentType } from './payment.type';
import { RefundType } from './refund.type';

/**
 * One loader per request or subscription: a page of payments costs one refund query, not one per
 * row. No cache: a subscription's context lives all day, and batching within a tick is all a page needs.
 */
const loaders = new WeakMap<GraphqlContext, DataLoader<PaymentView, IssuerRefundView | null>>();

function loaderOf(ctx: GraphqlContext): DataLoader<PaymentView, IssuerRefundView | null> {
  let loader = loaders.get(ctx);
  if (!loader) {
    loader = new DataLoader(async (payments) => valueOf(await ctx.app.paymentRefunds(ctx.tenantId, payments), LIST_ERRORS), { maxBatchSize: 100, cache: false });
    loaders.set(ctx, loader);
  }
  return loader;
}

/**
 * The onchain refund of a payment (docs/decisions.md § Refunds; docs/api.md § Refunds), on every
 * `Payment` (lists, reads, `paymentUpdated`): the same object as REST's `refund`.
 */
@Resolver(() => PaymentType)
export class PaymentRefundResolver {
  @FieldResolver(() => RefundType, {
    nullable: true,
    description: 'The onchain refund of a live payment that failed or was reversed after acceptance; null when it owes none',
  })
  async refund(@Root() payment: PaymentView, @Ctx() ctx: GraphqlContext): Promise<IssuerRefundView | null> {
    // A payment in flight or succeeded owes none (mayOweRefund): no query for it at all.
    return mayOweRefund(payment.status) ? loaderOf(ctx).load(payment) : null;
  }
}
