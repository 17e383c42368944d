import { z } from 'zod';
import { WEBHOOK_EVENT_TYPES } from '../../core/events/outbox-event';
import type { WebhookErrorCode } from '../../core/webhooks/manage-webhooks';
import { DELIVERY_STATUSES } from '../../core/webhooks/webhook';
import type { ShapeACode } from './error-codes';
import { PageQuery } from './page.schema';

/** Body of POST /v1/webhooks/register (OpenAPI registerWebhook). */
export const RegisterWebhookBody = z
  .strictObject({
    url: z.string().min(1).max(2048).meta({ description: 'HTTPS endpoint that receives POST requests', example: 'https://issuer.example/hooks/payouts' }),
    events: z.array(z.string().max(64)).max(20).optional()
      .meta({ description: `Event types (${WEBHOOK_EVENT_TYPES.join(', ')}); empty or absent subscribes to all` }),
  })
  .meta({ id: 'RegisterWebhookRequest' });

/** Query of GET /v1/webhooks/events (OpenAPI listWebhookEvents). */
export const WebhookEventsQuery = PageQuery.extend({
  status: z.enum(DELIVERY_STATUSES).optional().meta({ description: 'Only entries in this delivery status' }),
  eventType: z.string().max(64).optional().meta({ description: 'Only entries of this event type', example: 'payment.succeeded' }),
  entityId: z.string().max(64).optional().meta({ description: 'Only entries about this payment or customer id', example: 'pay_01JD4ZQ8W0Y8M2V6N3C5B7K9TQ' }),
});

/** Path of DELETE /v1/webhooks/{webhookId}. */
export const WebhookIdParams = z.object({ webhookId: z.string().max(64).meta({ description: 'Registration id (a UUID)', example: '5e2b7c1d-9a4f-4b3e-8c6d-1f0a2b3c4d5e' }) });
/** Path of POST /v1/webhooks/events/{id}/retry. */
export const WebhookEventIdParams = z.object({ id: z.string().max(64).meta({ description: 'Delivery log entry id (a UUID)', example: '0b9e4c1a-5d2f-4e8b-9a7c-3f6d1e2b8c40' }) });

/** Every webhook failure code mapped to its shape A code, for REST and GraphQL alike; exhaustive by type. */
export const WEBHOOK_ERRORS: Record<WebhookErrorCode, ShapeACode> = {
  validation_error: 'validation_error', not_found: 'not_found', webhook_limit_reached: 'webhook_limit_reached',
};
