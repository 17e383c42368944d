import { DateTimeISOResolver } from 'graphql-scalars';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../core/events/outbox-event';
import type { RegisteredWebhook } from '../../core/webhooks/manage-webhooks';
import { DELIVERY_STATUSES, type DeliveryStatus, type RegistrationStatus, type WebhookEventEntry, type WebhookView } from '../../core/webhooks/webhook';
import { enumOf } from './enums.type';
import { connectionType } from './connection.type';
import { NodeInterface } from './node.type';

/**
 * Event types (docs/decisions.md § Webhooks): REST's dotted names (`payment.succeeded`) as enum
 * values (PAYMENT_SUCCEEDED), mapped back to the dotted names in enumOf.
 */
export const WebhookEventTypeEnum = enumOf(WEBHOOK_EVENT_TYPES, 'WebhookEventType', 'Type of a webhook event; REST and the delivered body write it dotted (PAYMENT_SUCCEEDED is payment.succeeded)', {
  'payment.processing': 'A payment moved to provider_accepted',
  'payment.succeeded': 'A payment succeeded: the recipient was paid',
  'payment.failed': 'A payment failed; its hold is released or returned',
  'payment.refunded': 'A payment was refunded after success',
  'customer.kyc.updated': 'A customer\'s KYC was approved or rejected',
  'deposit.detected': 'An onchain deposit to one of your addresses was seen (not yet final), or seen again after a reorganisation',
  'deposit.credited': 'An onchain deposit became final and your balance was credited',
  'deposit.dropped': 'A detected deposit was removed by a reorganisation before it was final; the balance never moved',
  'deposit.held': 'A final deposit from a sanctioned sender address is held for compliance review; not credited',
  'deposit.rejected': 'A held deposit was rejected by compliance review: never credited',
  'refund.pending': 'A live payment\'s stablecoin is owed back to its refundAddress (it failed after its funds were held, or was reversed)',
  'refund.confirmed': 'A refund\'s transaction is final onchain; refund_pending moved to refunded',
  'refund.failed': 'A refund\'s transaction reverted: it waits for an operator',
});

/** Delivery states of an event log entry (OpenAPI listWebhookEvents). */
export const WebhookDeliveryStatusEnum = enumOf(DELIVERY_STATUSES, 'WebhookDeliveryStatus', 'Delivery state of an event log entry (OpenAPI listWebhookEvents)');

/** Registration states: `disabled` after the endpoint answered 410 Gone (docs/decisions.md § Webhooks). */
export const WebhookStatusEnum = enumOf(['active', 'disabled'] as const satisfies readonly RegistrationStatus[], 'WebhookStatus', 'State of a webhook registration (disabled after a 410 Gone)');

const EVENTS_DESCRIPTION = 'Event types it receives; empty means every type';

/**
 * `Webhook`: a registration as listed (REST: an item of GET /v1/webhooks; docs/decisions.md § Webhooks). Resolvers
 * return the core's WebhookView unchanged, so it never carries the secret; never instantiated.
 */
@ObjectType('Webhook', { description: 'A webhook registration, without its secret' })
export class WebhookType implements WebhookView {
  @Field(() => ID, { description: 'uuid of the registration' })
  id!: string;

  @Field(() => ID, { description: 'uuid of the registration, the same as id', deprecationReason: 'Use id.' })
  webhookId!: string;

  @Field(() => String, { description: 'Endpoint that receives signed POST requests' })
  url!: string;

  @Field(() => [WebhookEventTypeEnum], { description: EVENTS_DESCRIPTION })
  events!: WebhookEventType[];

  @Field(() => WebhookStatusEnum, { description: 'ACTIVE, or DISABLED after the endpoint answered 410 Gone' })
  status!: RegistrationStatus;

  @Field(() => DateTimeISOResolver, { description: 'When it was registered' })
  createdAt!: string;
}

/**
 * `RegisteredWebhook`: the answer of `registerWebhook` (OpenAPI registerWebhook; REST: 201 of POST
 * /v1/webhooks/register). The only GraphQL type with `secret`, which is shown this once.
 */
@ObjectType('RegisteredWebhook', { description: 'A new registration; the signing secret is returned this once only' })
export class RegisteredWebhookType implements RegisteredWebhook {
  @Field(() => ID, { description: 'uuid of the registration' })
  id!: string;

  @Field(() => ID, { description: 'uuid of the registration, the same as id', deprecationReason: 'Use id.' })
  webhookId!: string;

  @Field(() => String, { description: 'HTTPS endpoint that receives signed POST requests' })
  url!: string;

  @Field(() => [WebhookEventTypeEnum], { description: EVENTS_DESCRIPTION })
  events!: WebhookEventType[];

  @Field(() => String, { description: 'whsec_<base64>: HMAC signing secret, returned once only' })
  secret!: string;
}

/**
 * `WebhookEvent`: one event log entry, the delivery of one event to one registration (OpenAPI
 * listWebhookEvents, plus eventId and webhookId; REST: an item of GET /v1/webhooks/events). Times ISO 8601 UTC.
 */
@ObjectType('WebhookEvent', { description: 'Delivery of one event to one registration (OpenAPI listWebhookEvents)', implements: NodeInterface })
export class WebhookEventEntryType implements WebhookEventEntry {
  @Field(() => ID, { description: 'Delivery id; sent as webhook-id on every attempt' })
  id!: string;

  @Field(() => ID, { description: 'The event id carried as `id` in the delivered body' })
  eventId!: string;

  @Field(() => WebhookEventTypeEnum, { description: 'What happened' })
  eventType!: string;

  @Field(() => String, { description: 'Id of the resource the event is about (a payment or customer id)' })
  entityId!: string;

  @Field(() => ID, { description: 'uuid of the registration it is delivered to' })
  webhookId!: string;

  @Field(() => String, { description: "The registration's endpoint" })
  url!: string;

  @Field(() => WebhookDeliveryStatusEnum, { description: 'Whether it was delivered, is still retried, or gave up' })
  status!: DeliveryStatus;

  @Field(() => Int, { description: 'Attempts made so far' })
  attempt!: number;

  @Field(() => String, { nullable: true, description: 'Error of the latest failed attempt, e.g. "HTTP 500"' })
  lastError!: string | null;

  @Field(() => DateTimeISOResolver, { nullable: true, description: 'When the next attempt is due; null unless pending' })
  nextRetryAt!: string | null;

  @Field(() => DateTimeISOResolver, { description: 'When the event was logged for this registration' })
  createdAt!: string;

  @Field(() => DateTimeISOResolver, { description: 'When it was last attempted or rescheduled' })
  updatedAt!: string;
}

/** The `webhookEvents` connection: one page of the event log, newest first. */
export const WebhookEventConnectionType = connectionType<WebhookEventEntry>(WebhookEventEntryType, 'WebhookEvent', 'event log entry', 'event log entries', 'newest first');
