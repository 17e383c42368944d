import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { WebhookEventEntry } from '../../core/webhooks/webhook';
import { RegisterWebhookBody, WEBHOOK_ERRORS, WebhookEventIdParams } from '../contract/webhook.contract';
import type { Connection } from './connection.type';
import { fieldOf } from './contract-fields';
import type { GraphqlContext } from './graphql-context';
import { connectionOf, cursorAsAfter, restPage } from './list-page';
import { parseInput, valueOf } from './graphql-errors';
import { DeleteWebhookArgsSchema, RegisterWebhookInput, WebhookEventsArgs, WebhookEventsArgsSchema } from './webhook.input';
import { RegisteredWebhookType, WebhookEventConnectionType, WebhookEventEntryType, WebhookType } from './webhook.type';

/**
 * Webhook registrations and the event log (docs/decisions.md § Webhooks and § GraphQL): the REST Webhooks routes as GraphQL.
 * Thin: each field validates with REST's zod rules, calls one use case for `ctx.tenantId` and maps
 * its error codes through WEBHOOK_ERRORS, so both transports refuse and answer alike.
 */
@Resolver()
export class WebhookResolver {
  /** The tenant's registrations, oldest first, never with secrets (REST: GET /v1/webhooks). No errors. */
  @Query(() => [WebhookType], { description: 'Your webhook registrations, without secrets (REST: GET /v1/webhooks)' })
  async webhooks(@Ctx() ctx: GraphqlContext): Promise<WebhookType[]> {
    return (await ctx.app.listWebhooks(ctx.tenantId)).map((w) => ({ ...w, id: w.webhookId }));
  }

  /**
   * One page of the tenant's event log, newest first (REST: GET /v1/webhooks/events; its Link
   * cursor is `pageInfo.endCursor`). Errors: validation_error (first outside 1..100, bad cursor, unknown status).
   */
  @Query(() => WebhookEventConnectionType, { description: 'Your webhook event log, newest first (REST: GET /v1/webhooks/events)' })
  async webhookEvents(@Args(() => WebhookEventsArgs) args: WebhookEventsArgs, @Ctx() ctx: GraphqlContext): Promise<Connection<WebhookEventEntry>> {
    const { limit, cursor } = restPage(args, 'webhookEvents');
    const { first: _first, after: _after, ...filters } = parseInput(WebhookEventsArgsSchema, { ...args }, 'webhookEvents');
    const page = valueOf(cursorAsAfter(await ctx.app.listWebhookEvents(ctx.tenantId, { ...filters, limit, cursor })), WEBHOOK_ERRORS);
    return connectionOf(page);
  }

  /**
   * Registers an endpoint; the answer is the only place the secret ever appears (REST: POST
   * /v1/webhooks/register). Errors: validation_error (not https, private or loopback target, port not
   * allowed, unknown event type), webhook_limit_reached (the tenant's cap; nothing written).
   */
  @Mutation(() => RegisteredWebhookType, { description: 'Register an HTTPS endpoint for signed events; the secret is shown once (REST: POST /v1/webhooks/register)' })
  async registerWebhook(
    @Arg('input', () => RegisterWebhookInput, { description: 'The endpoint and the event types it receives' }) input: RegisterWebhookInput,
    @Ctx() ctx: GraphqlContext,
  ): Promise<RegisteredWebhookType> {
    const body = parseInput(RegisterWebhookBody, { ...input }, 'input');
    const registered = valueOf(await ctx.app.registerWebhook(ctx.tenantId, body), WEBHOOK_ERRORS);
    return { ...registered, id: registered.webhookId };
  }

  /** Deletes a registration; its pending deliveries end failed. Answers true (REST: DELETE /v1/webhooks/{id}). Errors: not_found (also another tenant's id). */
  @Mutation(() => Boolean, { description: 'Delete a registration; its pending deliveries end failed (REST: DELETE /v1/webhooks/{webhookId})' })
  async deleteWebhook(@Arg('id', () => ID, fieldOf(DeleteWebhookArgsSchema, 'id')) id: string, @Ctx() ctx: GraphqlContext): Promise<true> {
    const args = parseInput(DeleteWebhookArgsSchema, { id }, 'deleteWebhook');
    valueOf(await ctx.app.deleteWebhook(ctx.tenantId, args.id), WEBHOOK_ERRORS);
    return true;
  }

  /** Schedules one event log entry for redelivery now and returns it (REST: POST /v1/webhooks/events/{id}/retry). Errors: not_found (also another tenant's id). */
  @Mutation(() => WebhookEventEntryType, { description: 'Redeliver one event log entry now (REST: POST /v1/webhooks/events/{id}/retry)' })
  async retryWebhookEvent(@Arg('id', () => ID, fieldOf(WebhookEventIdParams, 'id')) id: string, @Ctx() ctx: GraphqlContext): Promise<WebhookEventEntry> {
    const args = parseInput(WebhookEventIdParams, { id }, 'retryWebhookEvent');
    return valueOf(await ctx.app.retryWebhookEvent(ctx.tenantId, args.id), WEBHOOK_ERRORS);
  }
}
