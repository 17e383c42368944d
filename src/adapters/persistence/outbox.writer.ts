import type { EntityManager } from '@mikro-orm/postgresql';
import { WEBHOOK_EVENT_TYPES, type OutboxEvent, type OutboxWriter } from '../../core/events/outbox-event';
import { RECEIVING_STATUS } from '../../core/webhooks/webhook';
import { OutboxEventSchema } from './schemas/outbox.schema';
import { insertStatement } from './raw-insert';
import { DEPOSIT_EVENTS_CHANNEL, depositEventNotice } from './notify-channels';
import { CommitNotices } from './commit-notices';

/**
 * Appends outbox events inside the caller's transaction (docs/decisions.md § Payments: states and events and § Webhooks) and fans each webhook
 * event out to one delivery row per matching active registration, in the same transaction, so a
 * committed state change always has its deliveries and a registration made later gets none. The
 * wake-ups each event calls for go to `notices`, sent by the unit of work once it commits.
 */
export class OutboxTxWriter implements OutboxWriter {
  constructor(private readonly em: EntityManager, private readonly notices: CommitNotices = new CommitNotices()) {}

  async append(event: OutboxEvent): Promise<void> {
    await this.em.execute(...outboxStatement(this.em, event));
    this.notices.addEvent(event);
  }
}

/**
 * The statement that writes `event` and, for webhook types, its delivery rows: one round trip.
 * Only a deposit event notifies inside the transaction (DEPOSIT_EVENTS_CHANNEL, the deposit as
 * payload, delivered at commit, never on rollback); every other event's wake-ups are sent after
 * the commit (noticesOfEvent), so this statement takes no NOTIFY lock (docs/decisions.md § Performance).
 */
export function outboxStatement(em: EntityManager, event: OutboxEvent): [string, unknown[]] {
  const [sql, params] = outboxRowsStatement(em, event);
  // A deposit's notice feeds live subscriptions and wakes the delivery workers of every replica.
  const deposit = depositEventNotice(event);
  if (deposit) return [`${sql};\nselect pg_notify(?, ?)`, [...params, DEPOSIT_EVENTS_CHANNEL, deposit]];
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
