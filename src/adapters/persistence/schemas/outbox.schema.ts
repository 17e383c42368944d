import { EntitySchema } from '@mikro-orm/core';
import type { IdempotencyRecord } from '../../../core/idempotency/idempotency';
import type { OutboxEvent } from '../../../core/events/outbox-event';

/** Table `outbox_events`: the transactional outbox and each payment's history (docs/decisions.md § Payments: states and events and § Webhooks). */
export const OutboxEventSchema = new EntitySchema<OutboxEvent>({
  name: 'OutboxEvent',
  tableName: 'outbox_events',
  indexes: [{ name: 'outbox_events_entity_idx', properties: ['entityId', 'createdAt'] }],
  properties: {
    id: { type: 'uuid', primary: true },
    tenantId: { type: 'string', length: 40 },
    type: { type: 'string', length: 40 },
    entityId: { type: 'string', length: 40 },
    // json keeps the payload's key order, so webhook bodies read like the REST resource.
    payload: { type: 'json', columnType: 'json' },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
  },
});

/** Table `idempotency_keys`, keyed by (tenant, key) (docs/decisions.md § Idempotency). */
export const IdempotencyKeySchema = new EntitySchema<IdempotencyRecord>({
  name: 'IdempotencyKey',
  tableName: 'idempotency_keys',
  properties: {
    tenantId: { type: 'string', length: 40, primary: true },
    key: { type: 'string', length: 64, primary: true },
    operation: { type: 'string', length: 40 },
    fingerprint: { type: 'text' },
    // json, not jsonb: a replay must return the first body byte for byte, key order included.
    responseBody: { type: 'json', columnType: 'json' },
    resourceId: { type: 'string', length: 40 },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
    expiresAt: { type: 'Date', columnType: 'timestamptz', index: true },
  },
});
