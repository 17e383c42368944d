import { DateTimeISOResolver } from 'graphql-scalars';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import type { PaymentEventType } from '../../core/events/outbox-event';
import type { PaymentTimeline, PaymentTimelineEntry, WebhookHealthView } from '../../core/operations/operations-reads';
import type { PaymentStatus } from '../../core/payments/payment';
import type { PaymentView } from '../../core/payments/payment-view';
import type { RegistrationStatus } from '../../core/webhooks/webhook';
import { PaymentFailureCodeEnum, PaymentStatusEnum } from './enums.type';
import { PaymentType } from './payment.type';
import { WebhookStatusEnum } from './webhook.type';

/*
 * Types of the operations console's reads (docs/decisions.md § Operations console). Resolvers return
 * the core's views unchanged; these classes only describe the GraphQL shape and are never instantiated.
 */

/** One state a payment reached, from its outbox event. */
@ObjectType('PaymentTimelineEntry', { description: 'One state a payment reached, with when and why' })
export class PaymentTimelineEntryType implements PaymentTimelineEntry {
  @Field(() => String, { description: 'payment.initiated, payment.processing, payment.succeeded, payment.failed or payment.refunded' })
  type!: PaymentEventType;

  @Field(() => PaymentStatusEnum, { description: 'The state the payment reached with this event' })
  status!: PaymentStatus;

  @Field(() => DateTimeISOResolver, { description: 'When the move was committed' })
  at!: string;

  @Field(() => String, { nullable: true, description: 'Why it failed or was refunded; null otherwise' })
  failureReason!: string | null;

  @Field(() => PaymentFailureCodeEnum, { nullable: true, description: 'Why it failed or was refunded, as a code; null otherwise and for events recorded before failure codes' })
  failureCode!: PaymentTimelineEntry['failureCode'];
}

/** A payment with its history, oldest entry first. */
@ObjectType('PaymentTimeline', { description: 'A payment of yours with every state it reached, oldest first' })
export class PaymentTimelineType implements PaymentTimeline {
  @Field(() => PaymentType, { description: 'The payment as it is now' })
  payment!: PaymentView;

  @Field(() => [PaymentTimelineEntryType], { description: 'Every state it reached, oldest first' })
  events!: PaymentTimelineEntryType[];
}

/** Delivery health of one registration over the last day. */
@ObjectType('WebhookHealth', { description: 'Delivery health of one webhook registration over the last 24 hours' })
export class WebhookHealthType implements WebhookHealthView {
  @Field(() => ID, { description: 'uuid of the registration' })
  webhookId!: string;

  @Field(() => String, { description: 'Endpoint that receives signed POST requests' })
  url!: string;

  @Field(() => WebhookStatusEnum, { description: 'ACTIVE, or DISABLED after the endpoint answered 410 Gone' })
  status!: RegistrationStatus;

  @Field(() => Boolean, { description: 'Deliveries are failing or retrying, or the endpoint was disabled (410 Gone)' })
  failing!: boolean;

  @Field(() => Int, { description: 'Deliveries that used every attempt and ended failed' })
  failed!: number;

  @Field(() => Int, { description: 'Deliveries waiting for a retry after a failed attempt' })
  retrying!: number;

  @Field(() => Int, { description: 'Deliveries delivered' })
  delivered!: number;

  @Field(() => String, { nullable: true, description: 'Error of the newest failed attempt of a delivery not delivered, e.g. "HTTP 500"' })
  lastError!: string | null;

  @Field(() => DateTimeISOResolver, { nullable: true, description: 'When lastError happened; null without one' })
  lastErrorAt!: string | null;
}
