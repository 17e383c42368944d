import { Arg, ID, Resolver, Root, Subscription } from 'type-graphql';
import type { PaymentStatus } from '../../core/payments/payment';
import type { PaymentView } from '../../core/payments/payment-view';
import { matchesPaymentUpdated, type GraphqlContext, type PaymentUpdatedArgs } from './graphql-context';
import { PaymentStatusEnum } from './enums.type';
import { PaymentType } from './payment.type';

/**
 * `paymentUpdated` (docs/decisions.md § GraphQL): every status change of the caller's tenant's payments,
 * creation (`initiated`) included, as committed on any replica, each once and in commit order;
 * filtered by `paymentId` and `status` when given. The source is the tenant bus fed by the payment
 * event feed, which reads the committed events when a NOTIFY sent after the commit wakes it.
 */
@Resolver()
export class PaymentUpdatedResolver {
  @Subscription(() => PaymentType, {
    description: 'Status changes of your payments, live; optionally one payment and/or some statuses',
    subscribe: ({ args, context }) => {
      const ctx = context as GraphqlContext;
      return ctx.updates.subscribe(ctx.tenantId, (view) => matchesPaymentUpdated(args as PaymentUpdatedArgs, view));
    },
  })
  paymentUpdated(
    @Root() view: PaymentView,
    @Arg('paymentId', () => ID, { nullable: true, description: 'Only this payment (pay_…)' }) _paymentId?: string | null,
    @Arg('status', () => [PaymentStatusEnum], { nullable: true, description: 'Only changes to one of these statuses' }) _status?: PaymentStatus[] | null,
  ): PaymentView {
    return view;
  }
}
