import type { EntityManager } from '@mikro-orm/postgresql';
import type { PaymentEventType } from '../../core/events/outbox-event';
import type {
  OperationsReader, PaymentEventRow, PaymentRecipientRow, WebhookHealthRow,
} from '../../core/operations/operations-reads';
import type { RegistrationStatus } from '../../core/webhooks/webhook';
import { OutboxEventSchema } from './schemas/outbox.schema';
import { PaymentSchema } from './schemas/payment.schema';

/** The operations console's reads on PostgreSQL (OperationsReader port), each on a fresh fork. */
export class OperationsRepository implements OperationsReader {
  constructor(private readonly em: EntityManager) {}

  async recipients(tenantId: string, paymentIds: readonly string[]): Promise<PaymentRecipientRow[]> {
    // The sealed account number is opened by its column type; it leaves this adapter only masked by the core.
    const payments = await this.em.fork().find(PaymentSchema, { tenantId, id: { $in: [...paymentIds] } });
    return payments.map((p) => ({
      paymentId: p.id, country: p.country, paymentMethod: p.paymentMethod, accountNumber: p.accountNumber ?? '',
    }));
  }

  async paymentEvents(tenantId: string, paymentId: string): Promise<PaymentEventRow[]> {
    const events = await this.em.fork().find(OutboxEventSchema, { tenantId, entityId: paymentId },
      { orderBy: { createdAt: 'asc', id: 'asc' } });
    return events.map((e) => ({ type: e.type as PaymentEventType, createdAt: e.createdAt, payload: e.payload }));
  }

  async webhookHealth(tenantId: string, since: Date): Promise<WebhookHealthRow[]> {
    const rows = await this.em.fork().execute<{
      id: string; url: string; status: RegistrationStatus; failed: number; retrying: number; delivered: number;
      last_error: string | null; last_error_at: Date | string | null;
    }[]>(
      `select r.id, r.url, r.status,
              count(d.id) filter (where d.status = 'failed')::int as failed,
              count(d.id) filter (where d.status = 'pending' and d.last_error is not null)::int as retrying,
              count(d.id) filter (where d.status = 'delivered')::int as delivered,
              (array_agg(d.last_error order by d.updated_at desc)
                 filter (where d.status <> 'delivered' and d.last_error is not null))[1] as last_error,
              max(d.updated_at) filter (where d.status <> 'delivered' and d.last_error is not null) as last_error_at
         from webhook_registrations r
         left join webhook_deliveries d on d.registration_id = r.id and d.tenant_id = r.tenant_id and d.created_at >= ?
        where r.tenant_id = ? and r.deleted_at is null
        group by r.id, r.url, r.status`,
      [since, tenantId],
    );
    return rows.map((r) => ({
      webhookId: r.id, url: r.url, status: r.status, failed: r.failed, retrying: r.retrying, delivered: r.delivered,
      lastError: r.last_error, lastErrorAt: r.last_error_at === null ? null : new Date(r.last_error_at),
    }));
  }
}
