import type { EntityManager } from '@mikro-orm/postgresql';
import type { DeliveryStatus, WebhookEventEntry, WebhookRegistration } from '../../core/webhooks/webhook';
import type { EventLogQuery, WebhookRepository } from '../../core/webhooks/webhook-ports';
import { WebhookRegistrationSchema } from './schemas/webhook.schema';
import { UUID_PATTERN } from '../../core/idempotency/idempotency';
import { decodeCursor, encodeCursor } from './keyset-cursor';

interface DeliveryDbRow {
  id: string; event_id: string; event_type: string; entity_id: string; registration_id: string; url: string;
  status: DeliveryStatus; attempt: number; last_error: string | null; next_retry_at: Date | null; created_at: Date; updated_at: Date;
}

/** Maps a `webhook_deliveries` row to its event log entry (OpenAPI listWebhookEvents). */
export function toEntry(row: DeliveryDbRow): WebhookEventEntry {
  return {
    id: row.id, eventId: row.event_id, eventType: row.event_type, entityId: row.entity_id, webhookId: row.registration_id,
    url: row.url, status: row.status, attempt: row.attempt, lastError: row.last_error,
    nextRetryAt: row.status === 'pending' && row.next_retry_at ? new Date(row.next_retry_at).toISOString() : null,
    createdAt: new Date(row.created_at).toISOString(), updatedAt: new Date(row.updated_at).toISOString(),
  };
}


/** Registrations and the event log on PostgreSQL (WebhookRepository port), always tenant-scoped. */
export class WebhookMikroRepository implements WebhookRepository {
  constructor(private readonly em: EntityManager) {}

  async insertUnderCap(registration: WebhookRegistration, admits: (existing: number, tenantLimit: number | null) => boolean): Promise<boolean> {
    return this.em.fork().transactional(async (tem) => {
      // The lock comes first and the count in its own statement: under READ COMMITTED that count's
      // snapshot is taken after the lock, so it sees every registration committed by the previous holder.
      const [tenant] = await tem.execute<{ webhook_limit: number | null }[]>(
        'select webhook_limit from tenants where id = ? for update', [registration.tenantId]);
      const [row] = await tem.execute<{ n: number }[]>(
        'select count(*)::int as n from webhook_registrations where tenant_id = ? and deleted_at is null', [registration.tenantId]);
      if (!admits(row?.n ?? 0, tenant?.webhook_limit ?? null)) return false;
      await tem.insert(WebhookRegistrationSchema, registration);
      return true;
    });
  }

  async listForTenant(tenantId: string): Promise<WebhookRegistration[]> {
    return this.em.fork().find(WebhookRegistrationSchema, { tenantId, deletedAt: null }, { orderBy: { createdAt: 'asc' } });
  }

  async delete(tenantId: string, webhookId: string, now: Date): Promise<boolean> {
    if (!UUID_PATTERN.test(webhookId)) return false;
    const count = await this.em.fork().nativeUpdate(
      WebhookRegistrationSchema,
      { id: webhookId, tenantId, deletedAt: null },
      { deletedAt: now, updatedAt: now },
    );
    return count > 0;
  }

  async listEvents(tenantId: string, query: EventLogQuery) {
    const where = ['tenant_id = ?'];
    const params: unknown[] = [tenantId];
    if (query.status) { where.push('status = ?'); params.push(query.status); }
    if (query.eventType) { where.push('event_type = ?'); params.push(query.eventType); }
    if (query.entityId) { where.push('entity_id = ?'); params.push(query.entityId); }
    if (query.cursor) {
      const cursor = decodeCursor(query.cursor, UUID_PATTERN);
      if (!cursor) return 'bad_cursor' as const;
      where.push('(created_at, id) < (?, ?)');
      params.push(...cursor);
    }
    const rows = await this.em.fork().execute<DeliveryDbRow[]>(
      `select * from webhook_deliveries where ${where.join(' and ')} order by created_at desc, id desc limit ?`,
      [...params, query.limit + 1],
    );
    const page = rows.slice(0, query.limit);
    const last = page[page.length - 1];
    return {
      entries: page.map(toEntry), cursors: page.map((r) => encodeCursor(r.created_at, r.id)),
      ...(rows.length > query.limit && last ? { nextCursor: encodeCursor(last.created_at, last.id) } : {}),
    };
  }

  async findEvent(tenantId: string, deliveryId: string): Promise<WebhookEventEntry | undefined> {
    if (!UUID_PATTERN.test(deliveryId)) return undefined;
    const rows = await this.em.fork().execute<DeliveryDbRow[]>('select * from webhook_deliveries where tenant_id = ? and id = ?', [tenantId, deliveryId]);
    return rows[0] ? toEntry(rows[0]) : undefined;
  }

  async retryEvent(tenantId: string, deliveryId: string, now: Date): Promise<WebhookEventEntry | undefined> {
    if (!UUID_PATTERN.test(deliveryId)) return undefined;
    const rows = await this.em.fork().execute<DeliveryDbRow[]>(
      `update webhook_deliveries set status = 'pending', next_retry_at = ?, updated_at = ?
        where id = ? and tenant_id = ? returning *`,
      [now, now, deliveryId, tenantId],
    );
    return rows[0] ? toEntry(rows[0]) : undefined;
  }
}
