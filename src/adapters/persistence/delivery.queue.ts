import type { EntityManager } from '@mikro-orm/postgresql';
import { isActiveRegistration, type RegistrationStatus } from '../../core/webhooks/webhook';
import type { ClaimRequest, DeliveryJob, DeliveryQueue, DeliveryRecord } from '../../core/webhooks/webhook-ports';

interface ClaimRow {
  id: string; registration_id: string; url: string; attempt: number; secret_ciphertext: string;
  registration_status: RegistrationStatus; registration_deleted_at: Date | null;
  event_id: string; event_type: string; entity_id: string; event_created_at: Date; payload: unknown;
}

/**
 * The webhook delivery queue (docs/decisions.md § Webhooks): one statement claims due rows FOR
 * UPDATE SKIP LOCKED, leases them and returns what sending needs, so any number of workers and
 * replicas can share it. The claim also applies the per-endpoint cap and the per-entity order
 * (DeliveryQueue.claimDue states both rules); the order check reads `webhook_deliveries_order_idx`.
 */
export class DeliveryMikroQueue implements DeliveryQueue {
  constructor(private readonly em: EntityManager) {}

  async claimDue(request: ClaimRequest): Promise<DeliveryJob[]> {
    const { now, limit, leaseUntil, perRegistration, inFlight, orderWaitMs } = request;
    const orderDeadline = new Date(now.getTime() - orderWaitMs);
    // `due` picks the oldest due rows that may go now, in the order of webhook_deliveries_due_idx so
    // the scan stops at `limit` rows; `ranked` keeps, per registration, only the slots it has left;
    // only those rows are locked (SKIP LOCKED: another worker's are left to it). `= any(array(...))`
    // makes the lock and the update look rows up by primary key (an IN join chose a full scan).
    const rows = await this.em.fork().execute<ClaimRow[]>(
      `with busy as (
         select * from jsonb_to_recordset(?::jsonb) as b(registration_id uuid, used int)),
       due as (
         select d.id, d.registration_id, d.next_retry_at
           from webhook_deliveries d
          where d.status = 'pending' and d.next_retry_at <= ?
            and not exists (select 1 from busy b where b.registration_id = d.registration_id and b.used >= ?)
            and (d.created_at <= ? or not exists (
                  select 1 from webhook_deliveries p
                   where p.registration_id = d.registration_id and p.entity_id = d.entity_id
                     and p.status = 'pending' and p.created_at < d.created_at))
          order by d.next_retry_at limit ?),
       ranked as (
         select due.id, ? - coalesce(b.used, 0) as slots,
                row_number() over (partition by due.registration_id order by due.next_retry_at) as n
           from due left join busy b on b.registration_id = due.registration_id),
       picked as (
         select d.id from webhook_deliveries d
          where d.id = any(array(select id from ranked where n <= slots)) and d.status = 'pending' and d.next_retry_at <= ?
            for update skip locked),
       claimed as (
         update webhook_deliveries set next_retry_at = ?, attempt = attempt + 1, updated_at = ?
          where id = any(array(select id from picked))
          returning id, registration_id, event_id, url, attempt)
       select c.id, c.registration_id, c.url, c.attempt, r.secret_ciphertext,
              r.status as registration_status, r.deleted_at as registration_deleted_at,
              e.id as event_id, e.type as event_type, e.entity_id, e.created_at as event_created_at, e.payload
         from claimed c
         join webhook_registrations r on r.id = c.registration_id
         join outbox_events e on e.id = c.event_id`,
      [
        JSON.stringify([...inFlight].map(([registrationId, used]) => ({ registration_id: registrationId, used }))),
        now, perRegistration, orderDeadline, limit,
        perRegistration,
        now,
        leaseUntil, now,
      ],
    );
    return rows.map((row) => ({
      id: row.id,
      registrationId: row.registration_id,
      registrationActive: isActiveRegistration({ status: row.registration_status, deletedAt: row.registration_deleted_at }),
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
