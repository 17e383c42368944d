import { Arg, Ctx, ID, Query, Resolver } from 'type-graphql';
import type { PaymentTimeline, WebhookHealthView } from '../../core/operations/operations-reads';
import type { GraphqlContext } from './graphql-context';
import { READ_ERRORS, valueOf } from './graphql-errors';
import { PaymentTimelineType, WebhookHealthType } from './operations.type';

/**
 * The operations console's reads (docs/decisions.md § Operations console): a payment's history and
 * the webhook endpoints that are failing. Thin: each field calls one use case for `ctx.tenantId`.
 */
@Resolver()
export class OperationsResolver {
  /** One payment with every state it reached, oldest first, or null with the error in `errors`. Errors: not_found (also another tenant's id). */
  @Query(() => PaymentTimelineType, {
    nullable: true,
    description: 'One payment of yours with its history: each state it reached, when, and why; null with a not_found error in errors when you have none with this id',
  })
  async paymentTimeline(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphqlContext): Promise<PaymentTimeline> {
    return valueOf(await ctx.app.paymentTimeline(ctx.tenantId, id), READ_ERRORS);
  }

  /** Every registration with its delivery figures of the last 24 hours, failing ones first. No errors. */
  @Query(() => [WebhookHealthType], { description: 'Your webhook registrations with their delivery health over the last 24 hours, failing ones first' })
  async webhookHealth(@Ctx() ctx: GraphqlContext): Promise<WebhookHealthView[]> {
    return ctx.app.webhookHealth(ctx.tenantId);
  }
}
