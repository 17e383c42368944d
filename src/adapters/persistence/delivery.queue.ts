import type { EntityManager } from '@mikro-orm/postgresql';
import type { DeliveryJob, DeliveryQueue, DeliveryRecord } from '../../core/webhooks/webhook-ports';

interface ClaimRow {
  id: string; registration_id: string; url: string; attempt: number; secret_ciphertext: string; registration_active: boolean;
  event_id: string; event_type: string; entity_id: string; event_created_at: Date; payload: unknown;
}

/**
 * The webhook delivery queue (DESIGN.md 8): one statement claims due rows FOR UPDATE SKIP LOCKED,
 * leases them and returns what sending needs, so any number of workers and replicas can share it.
 */
export class DeliveryMikroQueue implements DeliveryQueue {
  constructor(private readonly em: EntityManager) {}

  async claimDue(now: Date, limit: number, leaseUntil: Date): Promise<DeliveryJob[]> {
    const rows = await this.em.fork().execute<ClaimRow[]>(
      `with claimed as (
         update webhook_deliveries set next_retry_at = ?, attempt = attempt + 1, updated_at = ?
          where id in (select id from webhook_deliveries
                        where status = 'pending' and next_retry_at <= ?
                        order by next_retry_at, created_at limit ? for update skip locked)
          returning id, registration_id, event_id, url, attempt)
       select c.id, c.registration_id, c.url, c.attempt, r.secret_ciphertext,
              (r.status = 'active' and r.deleted_at is null) as registration_active,
              e.id as event_id, e.type as event_type, e.entity_id, e.created_at as event_created_at, e.payload
         from claimed c
         join webhook_registrations r on r.id = c.registration_id
         join outbox_events e on e.id = c.event_id`,
      [leaseUntil, now, now, limit],
    );
    return rows.map((row) => ({
      id: row.id,
      registrationId: row.registration_id,
      registrationActive: row.registration_active,
      url: row.url,
      attempt: row.attempt,
      secretCiphertext: row.secret_ciphertext,
      event: { id: row.event_id, type: row.event_type, entityId: row.entity_id, createdAt: new Date(row.event_created_at), payload: row.payload },
    }));
  }

  async record(id: string, attempt: number, result: DeliveryRecord): Promise<void> {
    await this.em.fork().execute(
      `update webhook_deliveries set status = ?, last_error = coalesce(?, last_error), next_retry_at = ?, updated_at = ?
        where id = ? and attempt = ?`,
      [result.status, result.lastError, result.nextRetryAt, result.now, id, attempt],
    );
  }

  async disableRegistration(registrationId: string, now: Date): Promise<void> {
    await this.em.fork().execute(
      `update webhook_registrations set status = 'disabled', updated_at = ? where id = ?`,
      [now, registrationId],
    );
  }
}
