import { ArgsType, Field, InputType, Int } from 'type-graphql';
import { z } from 'zod';
import type { DeliveryStatus } from '../../core/webhooks/webhook';
import { WebhookEventsQuery, WebhookIdParams } from '../contract/webhook.contract';
import { WebhookDeliveryStatusEnum } from './webhook.type';

/**
 * REST's event-log query (WebhookEventsQuery) with its page fields under their GraphQL names
 * (`limit` → `first`, `cursor` → `after`): the same rules and strictness, and error messages that
 * name the argument the caller actually sent.
 */
export const WebhookEventsArgsSchema = WebhookEventsQuery.omit({ limit: true, cursor: true })
  .extend({ first: WebhookEventsQuery.shape.limit, after: WebhookEventsQuery.shape.cursor });

/** REST's DELETE /v1/webhooks/{webhookId} parameter rule, under the GraphQL argument name `id`. */
export const DeleteWebhookArgsSchema = z.strictObject({ id: WebhookIdParams.shape.webhookId });

/** REST's default page size, read from its schema so the two cannot drift (50). */
export const DEFAULT_WEBHOOK_EVENTS_PAGE: number = WebhookEventsQuery.shape.limit.parse(undefined);

/** Input of `registerWebhook`: REST's POST /v1/webhooks/register body (OpenAPI registerWebhook), checked by its zod schema. */
@InputType('RegisterWebhookInput')
export class RegisterWebhookInput {
  @Field(() => String, { description: 'HTTPS endpoint that receives POST requests; private and loopback hosts are refused' })
  url!: string;

  @Field(() => [String], { nullable: true, description: 'Event types (payment.processing, ...); empty or absent subscribes to all' })
  events?: string[] | null;
}

/**
 * Arguments of `webhookEvents`: those of REST's GET /v1/webhooks/events (OpenAPI listWebhookEvents), `limit` and
 * `cursor` named `first` and `after`; checked by WebhookEventsArgsSchema.
 */
@ArgsType()
export class WebhookEventsArgs {
  @Field(() => Int, { defaultValue: DEFAULT_WEBHOOK_EVENTS_PAGE, description: 'Page size, 1..100 (REST: limit)' })
  first!: number;

  @Field(() => String, { nullable: true, description: 'pageInfo.endCursor of the previous page (REST: cursor)' })
  after?: string | null;

  @Field(() => WebhookDeliveryStatusEnum, { nullable: true })
  status?: DeliveryStatus | null;

  @Field(() => String, { nullable: true, description: 'Exact event type, e.g. payment.failed' })
  eventType?: string | null;

  @Field(() => String, { nullable: true, description: 'Exact resource id the events are about, e.g. a payment id' })
  entityId?: string | null;
}
