import { z } from 'zod';
import { WEBHOOK_EVENT_TYPES } from '../../core/events/outbox-event';
import { DELIVERY_STATUSES } from '../../core/webhooks/webhook';

const WEBHOOK_ID = '5e2b7c1d-9a4f-4b3e-8c6d-1f0a2b3c4d5e';
const HOOK_URL = 'https://issuer.example.org/hooks/payouts';
const webhookId = () => z.uuid().meta({ description: 'Registration id', example: WEBHOOK_ID });
const hookUrl = () => z.string().meta({ description: 'The HTTPS endpoint that receives the events', example: HOOK_URL });
const events = () => z.array(z.enum(WEBHOOK_EVENT_TYPES)).meta({ description: 'Event types delivered; empty means every type', example: ['payment.succeeded', 'payment.failed'] });

/** Webhook registration (OpenAPI registerWebhook); `secret` appears only in the 201 response. */
export const RegisteredWebhookResponse = z
  .object({
    webhookId: webhookId(),
    url: hookUrl(),
    events: events(),
    secret: z.string().meta({ description: 'whsec_<base64>: HMAC signing secret, returned once only', example: 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD/Qq7XzBhfRE=' }),
  })
  .meta({
    id: 'WebhookRegistration',
    description: 'A new registration with its signing secret (shown this once)',
    example: { webhookId: WEBHOOK_ID, url: HOOK_URL, events: ['payment.succeeded', 'payment.failed'], secret: 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD/Qq7XzBhfRE=' },
  });

/** A registration as listed, without its secret. */
export const WebhookListItem = z
  .object({
    webhookId: webhookId(),
    url: hookUrl(),
    events: events(),
    status: z.enum(['active', 'disabled']).meta({ description: 'disabled after the endpoint answered 410' }),
    createdAt: z.iso.datetime().meta({ description: 'When it was registered', example: '2026-11-20T14:02:51.310Z' }),
  })
  .meta({
    id: 'Webhook',
    description: 'A webhook registration, without its secret',
    example: { webhookId: WEBHOOK_ID, url: HOOK_URL, events: ['payment.succeeded', 'payment.failed'], status: 'active', createdAt: '2026-11-20T14:02:51.310Z' },
  });

/** Event log entry (OpenAPI listWebhookEvents, plus eventId and webhookId). */
export const WebhookEventEntryResponse = z
  .object({
    id: z.uuid().meta({ description: 'Delivery id; sent as webhook-id on every attempt', example: '0b9e4c1a-5d2f-4e8b-9a7c-3f6d1e2b8c40' }),
    eventId: z.uuid().meta({ description: 'The event id carried as `id` in the delivered body', example: 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f' }),
    eventType: z.string().meta({ description: 'The event type', example: 'payment.succeeded' }),
    entityId: z.string().meta({ description: 'The payment or customer the event is about', example: 'pay_01JD4ZQ8W0Y8M2V6N3C5B7K9TQ' }),
    webhookId: webhookId(),
    url: hookUrl(),
    status: z.enum(DELIVERY_STATUSES).meta({ description: 'Where the delivery stands: pending (retries ahead), delivered, or failed after the last attempt' }),
    attempt: z.number().int().min(0).meta({ description: 'Attempts made so far', example: 1 }),
    lastError: z.string().nullable().meta({ description: 'What the last failed attempt got (HTTP status or network error); null when none failed', example: null }),
    nextRetryAt: z.iso.datetime().nullable().meta({ description: 'When the next attempt is due; null when none is', example: null }),
    createdAt: z.iso.datetime().meta({ description: 'When the event was recorded', example: '2026-11-23T09:41:09.204Z' }),
    updatedAt: z.iso.datetime().meta({ description: 'When the entry last changed', example: '2026-11-23T09:41:09.388Z' }),
  })
  .meta({
    id: 'WebhookEvent',
    description: 'One delivery of one event to one registration',
    example: {
      id: '0b9e4c1a-5d2f-4e8b-9a7c-3f6d1e2b8c40', eventId: 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f', eventType: 'payment.succeeded',
      entityId: 'pay_01JD4ZQ8W0Y8M2V6N3C5B7K9TQ', webhookId: WEBHOOK_ID, url: HOOK_URL, status: 'delivered', attempt: 1,
      lastError: null, nextRetryAt: null, createdAt: '2026-11-23T09:41:09.204Z', updatedAt: '2026-11-23T09:41:09.388Z',
    },
  });
