import { z } from 'zod';
import { WEBHOOK_EVENT_TYPES } from '../../core/events/outbox-event';
import { DELIVERY_STATUSES } from '../../core/webhooks/webhook';

/** Webhook registration (OpenAPI registerWebhook); `secret` appears only in the 201 response. */
export const RegisteredWebhookResponse = z
  .object({
    webhookId: z.uuid(),
    url: z.string(),
    events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
    secret: z.string().meta({ description: 'whsec_<base64>: HMAC signing secret, returned once only' }),
  })
  .meta({ id: 'WebhookRegistration' });

/** A registration as listed, without its secret. */
export const WebhookListItem = z
  .object({
    webhookId: z.uuid(),
    url: z.string(),
    events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
    status: z.enum(['active', 'disabled']),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'Webhook' });

/** Event log entry (OpenAPI listWebhookEvents, plus eventId and webhookId). */
export const WebhookEventEntryResponse = z
  .object({
    id: z.uuid().meta({ description: 'Delivery id; sent as webhook-id on every attempt' }),
    eventId: z.uuid().meta({ description: 'The event id carried as `id` in the delivered body' }),
    eventType: z.string(),
    entityId: z.string(),
    webhookId: z.uuid(),
    url: z.string(),
    status: z.enum(DELIVERY_STATUSES),
    attempt: z.number().int(),
    lastError: z.string().nullable(),
    nextRetryAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'WebhookEvent' });
