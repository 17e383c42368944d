import type { EntityManager } from '@mikro-orm/postgresql';
import { WEBHOOK_EVENT_TYPES, type OutboxEvent, type OutboxWriter } from '../../core/events/outbox-event';
import { RECEIVING_STATUS } from '../../core/webhooks/webhook';
import { OutboxEventSchema } from './schemas/outbox.schema';
import { insertStatement } from './raw-insert';
import { DEPOSIT_EVENTS_CHANNEL, depositEventNotice, PAYMENT_EVENTS_CHANNEL, paymentEventNotice, WORK_DUE_CHANNEL } from './notify-channels';

/**
 * Appends outbox events inside the caller's transaction (docs/decisions.md § Payments: states and events and § Webhooks) and fans each webhook
 * event out to one delivery row per matching active registration, in the same transaction, so a
 * committed state change always has its deliveries and a registration made later gets none.
 */
export class OutboxTxWriter implements OutboxWriter {
  constructor(private readonly em: EntityManager) {}

  async append(event: OutboxEvent): Promise<void> {
    await this.em.execute(...outboxStatement(this.em, event));
  }
}

/**
 * The statement that writes `event` and, for webhook types, its delivery rows: one round trip.
 * A payment event also notifies PAYMENT_EVENTS_CHANNEL (live subscriptions and workers on every
 * replica), a deposit event DEPOSIT_EVENTS_CHANNEL, another webhook event WORK_DUE_CHANNEL; NOTIFY inside the transaction is delivered at
 * commit, never before, never on rollback.
 */
export function outboxStatement(em: EntityManager, event: OutboxEvent): [string, unknown[]] {
  const [sql, params] = outboxRowsStatement(em, event);
  const notice = paymentEventNotice(event);
  if (notice) return [`${sql};\nselect pg_notify(?, ?)`, [...params, PAYMENT_EVENTS_CHANNEL, notice]];
  // A deposit's notice feeds live subscriptions and wakes the delivery workers of every replica.
  const deposit = depositEventNotice(event);
  if (deposit) return [`${sql};\nselect pg_notify(?, ?)`, [...params, DEPOSIT_EVENTS_CHANNEL, deposit]];
  // Other webhook events wake the delivery workers of every replica the same way.
  if ((WEBHOOK_EVENT_TYPES as readonly string[]).includes(event.type)) return [`${sql};\nselect pg_notify(?, 'webhooks')`, [...params, WORK_DUE_CHANNEL]];
  return [sql, params];
}

/**
 * The core's `receivesEvent` over `webhook_registrations r`, for the event type the SQL expression
 * `type` gives (docs/decisions.md § Webhooks). Kept in step with it by a test over a table of cases.
 */
export function receivesEventSql(type: string): string {
  return `r.status = '${RECEIVING_STATUS}' and r.deleted_at is null
          and (r.events = '[]'::jsonb or r.events @> jsonb_build_array(${type}::text))`;
}

function outboxRowsStatement(em: EntityManager, event: OutboxEvent): [string, unknown[]] {
  const [insertEvent, eventValues] = insertStatement(em, OutboxEventSchema, event);
  if (!(WEBHOOK_EVENT_TYPES as readonly string[]).includes(event.type)) return [insertEvent, eventValues];
  return [
      `with event as (${insertEvent} returning id)
       insert into webhook_deliveries
         (id, tenant_id, event_id, registration_id, event_type, entity_id, url, status, attempt, next_retry_at, created_at, updated_at)
       select gen_random_uuid(), r.tenant_id, ?, r.id, ?, ?, r.url, 'pending', 0, ?, ?, ?
         from webhook_registrations r
        where r.tenant_id = ? and ${receivesEventSql('?')}`,
      [...eventValues, event.id, event.type, event.entityId, event.createdAt, event.createdAt, event.createdAt, event.tenantId, event.type],
  ];
}
