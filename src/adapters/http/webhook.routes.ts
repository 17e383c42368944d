import type { Err } from '../../core/shared/result';
import type { Response } from 'express';
import { z } from 'zod';
import type { Application } from '../../core/application';
import type { WebhookErrorCode } from '../../core/webhooks/manage-webhooks';
import {
  RegisterWebhookBody, WEBHOOK_ERRORS, WebhookEventIdParams, WebhookEventsQuery, WebhookIdParams,
} from '../contract/webhook.contract';
import { AUTH_ERRORS, ErrorA } from './common.schema';
import { fieldsOf, sendShapeA, type RequestParts } from './http-errors';
import { defineRoute, type RouteSpec } from './route';
import { nextPageLink } from './pagination';
import { RegisteredWebhookResponse, WebhookEventEntryResponse, WebhookListItem } from './webhook.schema';

const fail = (res: Response, error: Err<WebhookErrorCode>, req: RequestParts) => sendShapeA(res, WEBHOOK_ERRORS[error.code], error.message, fieldsOf(error, req));


/** Routes of the Webhooks tag (OpenAPI registerWebhook and listWebhookEvents; docs/decisions.md § Webhooks). */
export function webhookRoutes(app: Application): RouteSpec<any, any, any>[] {
  return [
    defineRoute<z.infer<typeof RegisterWebhookBody>>({
      method: 'post', path: '/v1/webhooks/register', operationId: 'registerWebhook',
      description: 'Registers an HTTPS endpoint that receives a signed POST for each event (all types, or those listed in events). The secret that signs them is in this answer only: store it. At most 10 registrations per tenant unless an operator set another limit.', tags: ['Webhooks'], auth: 'issuer',
      summary: 'Register an HTTPS endpoint for signed event notifications; the secret is shown once',
      body: RegisterWebhookBody,
      responses: {
        '201': { description: 'Registered', schema: RegisteredWebhookResponse }, ...AUTH_ERRORS,
        '422': { description: 'The tenant has as many registrations as it may (webhook_limit_reached)', schema: ErrorA },
      },
      handler: async (req, res) => {
        const result = await app.registerWebhook(req.tenantId, req.body);
        if (!result.ok) return fail(res, result, req);
        res.status(201).json(result.value);
      },
    }),
    defineRoute({
      method: 'get', path: '/v1/webhooks', operationId: 'listWebhooks',
      description: 'Your webhook registrations with their status; secrets are never shown again.', tags: ['Webhooks'], auth: 'issuer',
      summary: "List the tenant's webhook registrations (never their secrets)",
      responses: { '200': { description: 'Registrations', schema: z.array(WebhookListItem) }, ...AUTH_ERRORS },
      handler: async (req, res) => void res.json(await app.listWebhooks(req.tenantId)),
    }),
    defineRoute<undefined, undefined, z.infer<typeof WebhookIdParams>>({
      method: 'delete', path: '/v1/webhooks/{webhookId}', operationId: 'deleteWebhook',
      description: 'Deletes a registration: it receives nothing more, and its pending deliveries end failed.', tags: ['Webhooks'], auth: 'issuer',
      summary: 'Delete a registration; its pending deliveries end failed',
      params: WebhookIdParams,
      responses: { '204': { description: 'Deleted' }, ...AUTH_ERRORS, '404': { description: 'not_found', schema: ErrorA } },
      handler: async (req, res) => {
        const result = await app.deleteWebhook(req.tenantId, req.params.webhookId);
        if (!result.ok) return fail(res, result, req);
        res.status(204).end();
      },
    }),
    defineRoute<undefined, z.infer<typeof WebhookEventsQuery>>({
      method: 'get', path: '/v1/webhooks/events', operationId: 'listWebhookEvents',
      description: 'The delivery log, newest first: one entry per event and registration, with its status, attempts and last error. Filter by status, eventType or entityId (a payment or customer id); page with limit and the Link header.', tags: ['Webhooks'], auth: 'issuer',
      summary: 'Event delivery log, newest first; the next page is in the Link header',
      query: WebhookEventsQuery,
      responses: { '200': { description: 'One page of entries', schema: z.array(WebhookEventEntryResponse) }, ...AUTH_ERRORS },
      handler: async (req, res) => {
        const result = await app.listWebhookEvents(req.tenantId, req.query);
        if (!result.ok) return fail(res, result, req);
        if (result.value.nextCursor) res.set('Link', nextPageLink(req.raw, req.query, result.value.nextCursor));
        res.json(result.value.entries);
      },
    }),
    defineRoute<undefined, undefined, z.infer<typeof WebhookEventIdParams>>({
      method: 'post', path: '/v1/webhooks/events/{id}/retry', operationId: 'retryWebhookEvent',
      description: 'Sends one delivery log entry again now, whatever its status; it counts one request against your rate limit.', tags: ['Webhooks'], auth: 'issuer',
      summary: 'Redeliver one event log entry now',
      params: WebhookEventIdParams,
      responses: { '202': { description: 'Scheduled', schema: WebhookEventEntryResponse }, ...AUTH_ERRORS, '404': { description: 'not_found', schema: ErrorA } },
      handler: async (req, res) => {
        const result = await app.retryWebhookEvent(req.tenantId, req.params.id);
        if (!result.ok) return fail(res, result, req);
        res.status(202).json(result.value);
      },
    }),
  ];
}
