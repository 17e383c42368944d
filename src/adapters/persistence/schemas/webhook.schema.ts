import { EntitySchema } from '@mikro-orm/core';
import { WebhookRegistration, type DeliveryStatus } from '../../../core/webhooks/webhook';

/** Table `webhook_registrations` (OpenAPI registerWebhook; docs/decisions.md § Webhooks); `events` is a jsonb array of type names. */
export const WebhookRegistrationSchema = new EntitySchema<WebhookRegistration>({
  class: WebhookRegistration,
  tableName: 'webhook_registrations',
  indexes: [{ name: 'webhook_registrations_tenant_idx', properties: ['tenantId', 'createdAt'] }],
  properties: {
    id: { type: 'uuid', primary: true },
    tenantId: { type: 'string', length: 40 },
    url: { type: 'text' },
    events: { type: 'json' },
    secretCiphertext: { type: 'text' },
    status: { type: 'string', length: 10 },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
    updatedAt: { type: 'Date', columnType: 'timestamptz' },
    deletedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
  },
});

/** A row of `webhook_deliveries`: one event to one registration, with its attempts (OpenAPI listWebhookEvents). */
export interface WebhookDeliveryRow {
  id: string;
  tenantId: string;
  eventId: string;
  registrationId: string;
  eventType: string;
  entityId: string;
  url: string;
  status: DeliveryStatus;
  attempt: number;
  lastError: string | null;
  nextRetryAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * Table `webhook_deliveries`, written in the transaction of the state change that produced the
 * event (transactional outbox). The partial indexes serve the workers' claim of due rows and its
 * per-entity order check (docs/decisions.md § Webhooks).
 */
export const WebhookDeliverySchema = new EntitySchema<WebhookDeliveryRow>({
  name: 'WebhookDelivery',
  tableName: 'webhook_deliveries',
  indexes: [
    { name: 'webhook_deliveries_due_idx', properties: ['nextRetryAt'], expression: `create index "webhook_deliveries_due_idx" on "webhook_deliveries" ("next_retry_at") where "status" = 'pending'` },
    { name: 'webhook_deliveries_log_idx', properties: ['tenantId', 'createdAt', 'id'] },
    // The claim's order rule: "is an earlier event of this entity to this registration still pending?"
    {
      name: 'webhook_deliveries_order_idx', properties: ['registrationId', 'entityId', 'createdAt'],
      expression: `create index "webhook_deliveries_order_idx" on "webhook_deliveries" ("registration_id", "entity_id", "created_at") where "status" = 'pending'`,
    },
    // The claim's lanes: the registrations with pending rows, then each one's due rows in order.
    {
      name: 'webhook_deliveries_lane_idx', properties: ['registrationId', 'nextRetryAt'],
      expression: `create index "webhook_deliveries_lane_idx" on "webhook_deliveries" ("registration_id", "next_retry_at") where "status" = 'pending'`,
    },
  ],
  checks: [{ name: 'webhook_deliveries_status_check', expression: "status in ('pending', 'delivered', 'failed')" }],
  properties: {
    id: { type: 'uuid', primary: true },
    tenantId: { type: 'string', length: 40 },
    eventId: { type: 'uuid' },
    registrationId: { type: 'uuid', index: true },
    eventType: { type: 'string', length: 40 },
    entityId: { type: 'string', length: 40 },
    url: { type: 'text' },
    status: { type: 'string', length: 10 },
    attempt: { type: 'integer', default: 0 },
    lastError: { type: 'text', nullable: true },
    nextRetryAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
    updatedAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
