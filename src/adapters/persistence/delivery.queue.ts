import type { EntityManager } from '@mikro-orm/postgresql';
import { preparedRead } from './prepared-read';
import { isActiveRegistration, type RegistrationStatus } from '../../core/webhooks/webhook';
import type { AttemptRecord, ClaimRequest, DeliveryJob, DeliveryQueue } from '../../core/webhooks/webhook-ports';

interface ClaimRow {
  id: string; registration_id: string; url: string; attempt: number; secret_ciphertext: string;
  registration_status: RegistrationStatus; registration_deleted_at: Date | null;
  event_id: string; event_type: string; entity_id: string; event_created_at: Date; payload: unknown;
}

/**
 * The claim (DeliveryQueue.claimDue), a named prepared statement: PostgreSQL plans it once per
 * connection instead of on every pass (planning cost more than its execution). $1 the lanes'
 * room as JSON [{registration_id, room}], $2 now, $3 the order rule's deadline, $4 the limit,
 * $5 the room of a lane not in $1, $6 the lease's end.
 * It works lane by lane on `webhook_deliveries_lane_idx` (registration, due time; pending rows):
 * `lanes` lists the registrations with pending rows by skipping through the index (one probe per
 * registration, however many rows each has); a lane with no room costs nothing more, so a hanging
 * endpoint's backlog is never walked; `due` takes from each other lane its oldest due rows that
 * may go now (the order rule read on `webhook_deliveries_order_idx`), at most its room, and keeps
 * the `limit` oldest of all. Only those rows are locked (SKIP LOCKED: another worker's are left to
 * it). `= any(array(...))` makes the lock and the update look rows up by primary key (an IN join
 * chose a full scan).
 */
const CLAIM_DUE = `with recursive busy as (
         select * from jsonb_to_recordset($1::jsonb) as b(registration_id uuid, room int)),
       lanes as (
         (select d.registration_id from webhook_deliveries d where d.status = 'pending' order by d.registration_id limit 1)
         union all
         select (select d.registration_id from webhook_deliveries d
                  where d.status = 'pending' and d.registration_id > l.registration_id order by d.registration_id limit 1)
           from lanes l where l.registration_id is not null),
       due as (
         select x.id, x.next_retry_at
           from lanes l
           left join busy b on b.registration_id = l.registration_id
           cross join lateral (
             select d.id, d.next_retry_at from webhook_deliveries d
              where d.registration_id = l.registration_id and d.status = 'pending' and d.next_retry_at <= $2
                and (d.created_at <= $3 or not exists (
                      select 1 from webhook_deliveries p
                       where p.registration_id = d.registration_id and p.entity_id = d.entity_id
                         and p.status = 'pending' and p.created_at < d.created_at))
              order by d.next_retry_at limit coalesce(b.room, $5)) x
          where l.registration_id is not null and coalesce(b.room, $5) > 0
          order by x.next_retry_at limit $4),
       picked as (
         select d.id from webhook_deliveries d
          where d.id = any(array(select id from due)) and d.status = 'pending' and d.next_retry_at <= $2
            for update skip locked),
       claimed as (
         update webhook_deliveries set next_retry_at = $6, attempt = attempt + 1, updated_at = $2
          where id = any(array(select id from picked))
          returning id, registration_id, event_id, url, attempt)
       select c.id, c.registration_id, c.url, c.attempt, r.secret_ciphertext,
              r.status as registration_status, r.deleted_at as registration_deleted_at,
              e.id as event_id, e.type as event_type, e.entity_id, e.created_at as event_created_at, e.payload
         from claimed c
         join webhook_registrations r on r.id = c.registration_id
         join outbox_events e on e.id = c.event_id`;

/**
 * DeliveryQueue.recordAll as one statement for the batch, a named prepared statement: $1 the
 * results as JSON [{id, attempt, status, last_error, next_retry_at, at}]; each row is matched by
 * primary key and changed only at its own attempt.
 */
const RECORD_ATTEMPTS = `update webhook_deliveries d
    set status = r.status, last_error = coalesce(r.last_error, d.last_error), next_retry_at = r.next_retry_at, updated_at = r.at
   from jsonb_to_recordset($1::jsonb) as r(id uuid, attempt int, status text, last_error text, next_retry_at timestamptz, at timestamptz)
  where d.id = r.id and d.attempt = r.attempt`;

/**
 * The webhook delivery queue (docs/decisions.md § Webhooks): one statement claims due rows FOR
 * UPDATE SKIP LOCKED, leases them and returns what sending needs, so any number of workers and
 * replicas can share it. The claim also applies the per-endpoint cap and the per-entity order
 * (DeliveryQueue.claimDue states both rules).
 */
export class DeliveryMikroQueue implements DeliveryQueue {
  constructor(private readonly em: EntityManager) {}

  async claimDue(request: ClaimRequest): Promise<DeliveryJob[]> {
    const { now, limit, leaseUntil, perRegistration, room, orderWaitMs } = request;
    const orderDeadline = new Date(now.getTime() - orderWaitMs);
    const rows = (await preparedRead(this.em, 'webhook_claim_due', CLAIM_DUE, [
      JSON.stringify([...room].map(([registrationId, left]) => ({ registration_id: registrationId, room: left }))),
      now, orderDeadline, limit, perRegistration, leaseUntil,
    ])) as unknown as ClaimRow[];
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

  async recordAll(records: readonly AttemptRecord[]): Promise<void> {
    if (records.length === 0) return;
    await preparedRead(this.em, 'webhook_record_attempts', RECORD_ATTEMPTS, [JSON.stringify(records.map((r) => ({
      id: r.id, attempt: r.attempt, status: r.status, last_error: r.lastError, next_retry_at: r.nextRetryAt?.toISOString() ?? null, at: r.now.toISOString(),
    })))]);
  }

  async disableRegistration(registrationId: string, now: Date): Promise<void> {
    await this.em.fork().execute(
      `update webhook_registrations set status = 'disabled', updated_at = ? where id = ?`,
      [now, registrationId],
    );
  }
}
