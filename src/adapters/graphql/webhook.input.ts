import { ArgsType, Field, InputType, Int } from 'type-graphql';
import { z } from 'zod';
import type { DeliveryStatus } from '../../core/webhooks/webhook';
import { RegisterWebhookBody, WebhookEventsQuery, WebhookIdParams } from '../contract/webhook.contract';
import type { FieldDrift, NoDrift } from '../contract/schema-ties';
import { fieldOf } from './contract-fields';
import { PageArgsSchema } from './list-page';
import { WebhookDeliveryStatusEnum, WebhookEventTypeEnum } from './webhook.type';

/**
 * REST's event-log query (WebhookEventsQuery) with its page fields under their GraphQL names
 * (`limit` → `first`, `cursor` → `after`): the same rules and strictness, and error messages that
 * name the argument the caller actually sent.
 */
export const WebhookEventsArgsSchema = WebhookEventsQuery.omit({ limit: true, cursor: true }).extend(PageArgsSchema.shape);

/** REST's DELETE /v1/webhooks/{webhookId} parameter rule, under the GraphQL argument name `id`. */
export const DeleteWebhookArgsSchema = z.strictObject({ id: WebhookIdParams.shape.webhookId });


/** Input of `registerWebhook`: REST's POST /v1/webhooks/register body (OpenAPI registerWebhook), checked and described by its zod schema. */
@InputType('RegisterWebhookInput', { description: 'An endpoint to register, as REST POST /v1/webhooks/register takes it' })
export class RegisterWebhookInput {
  @Field(() => String, fieldOf(RegisterWebhookBody, 'url'))
  url!: string;

  @Field(() => [WebhookEventTypeEnum], fieldOf(RegisterWebhookBody, 'events'))
  events?: string[] | null;
}
type _RegisterWebhookInputTie = NoDrift<FieldDrift<RegisterWebhookInput, typeof RegisterWebhookBody>>;

/**
 * Arguments of `webhookEvents`: those of REST's GET /v1/webhooks/events (OpenAPI listWebhookEvents), `limit` and
 * `cursor` named `first` and `after`; checked and described by WebhookEventsArgsSchema.
 */
@ArgsType()
export class WebhookEventsArgs {
  @Field(() => Int, fieldOf(WebhookEventsArgsSchema, 'first'))
  first?: number | null;

  @Field(() => String, fieldOf(WebhookEventsArgsSchema, 'after'))
  after?: string | null;

  @Field(() => WebhookDeliveryStatusEnum, fieldOf(WebhookEventsArgsSchema, 'status'))
  status?: DeliveryStatus | null;

  @Field(() => WebhookEventTypeEnum, fieldOf(WebhookEventsArgsSchema, 'eventType'))
  eventType?: string | null;

  @Field(() => String, fieldOf(WebhookEventsArgsSchema, 'entityId'))
  entityId?: string | null;
}
type _WebhookEventsArgsTie = NoDrift<FieldDrift<WebhookEventsArgs, typeof WebhookEventsArgsSchema>>;
