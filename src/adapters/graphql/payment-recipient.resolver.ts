import DataLoader from 'dataloader';
import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { PaymentRecipient } from '../../core/operations/operations-reads';
import type { PaymentView } from '../../core/payments/payment-view';
import { CountryEnum } from './enums.type';
import type { GraphqlContext } from './graphql-context';
import { LIST_ERRORS, valueOf } from './graphql-errors';
import { PaymentType } from './payment.type';

/**
 * One loader per request or subscription: a page of payments costs one query, not one per row. No
 * cache: a subscription's context lives all day, and batching within a tick is all a page needs.
 */
const loaders = new WeakMap<GraphqlContext, DataLoader<string, PaymentRecipient | undefined>>();

function loaderOf(ctx: GraphqlContext): DataLoader<string, PaymentRecipient | undefined> {
  let loader = loaders.get(ctx);
  if (!loader) {
    loader = new DataLoader(async (ids) => valueOf(await ctx.app.paymentRecipients(ctx.tenantId, ids), LIST_ERRORS), { maxBatchSize: 100, cache: false });
    loaders.set(ctx, loader);
  }
  return loader;
}

/**
 * Where a payment goes (docs/decisions.md § Operations console): its country and its recipient
 * masked to the last 4 characters, on every `Payment` (lists, reads, `paymentUpdated`).
 */
@Resolver(() => PaymentType)
export class PaymentRecipientResolver {
  @FieldResolver(() => CountryEnum, { description: "The recipient's country (ISO 3166-1 alpha-2)" })
  async country(@Root() payment: PaymentView, @Ctx() ctx: GraphqlContext): Promise<string> {
    return (await this.recipientOf(payment, ctx)).country;
  }

  @FieldResolver(() => String, { description: 'The account or phone number paid, masked to its last 4 characters (••••6789)' })
  async recipient(@Root() payment: PaymentView, @Ctx() ctx: GraphqlContext): Promise<string> {
    return (await this.recipientOf(payment, ctx)).recipient;
  }

  private async recipientOf(payment: PaymentView, ctx: GraphqlContext): Promise<PaymentRecipient> {
    const found = await loaderOf(ctx).load(payment.id);
    // The payment was just read for this tenant, so it exists: anything else is a fault, not an answer.
    if (!found) throw new Error(`payment ${payment.id} has no recipient row`);
    return found;
  }
}
