import type { EntityManager } from '@mikro-orm/postgresql';
import { toPaymentView, type PaymentView } from '../../core/payments/payment-view';
import { OutboxEventSchema } from './schemas/outbox.schema';
import { PaymentSchema } from './schemas/payment.schema';

/** A payment view with the tenant it belongs to (the live feed's routing key; never published). */
export type TenantPaymentView = PaymentView & { readonly tenantId: string };

/** Port: what the live payment feed reads (docs/decisions.md § GraphQL). */
export interface PaymentEventReader {
  /**
   * The payment view each outbox event recorded (the view as of that event), in the order of
   * `eventIds` (uuids); undefined for an id with no event. One query for the whole batch.
   */
  viewsOfEvents(eventIds: readonly string[]): Promise<Array<TenantPaymentView | undefined>>;
  /**
   * The current view of `tenantIds`' payments updated at or after `since`, oldest update first
   * (ties by id), at most `limit` of them: what a reader missed while it was not listening.
   */
  updatedSince(tenantIds: readonly string[], since: Date, limit: number): Promise<TenantPaymentView[]>;
}

/** PaymentEventReader on PostgreSQL: outbox rows by id, payments by update time (each read on a fresh fork). */
export class PaymentEventRepository implements PaymentEventReader {
  constructor(private readonly em: EntityManager) {}

  async viewsOfEvents(eventIds: readonly string[]): Promise<Array<TenantPaymentView | undefined>> {
    const events = await this.em.fork().find(OutboxEventSchema, { id: { $in: [...eventIds] } });
    const byId = new Map(events.map((e) => [e.id, { ...(e.payload as unknown as PaymentView), tenantId: e.tenantId }]));
    return eventIds.map((id) => byId.get(id));
  }

  async updatedSince(tenantIds: readonly string[], since: Date, limit: number): Promise<TenantPaymentView[]> {
    if (tenantIds.length === 0) return [];
    const payments = await this.em.fork().find(PaymentSchema, { tenantId: { $in: [...tenantIds] }, updatedAt: { $gte: since } },
      { orderBy: { updatedAt: 'asc', id: 'asc' }, limit });
    return payments.map((payment) => ({ ...toPaymentView(payment), tenantId: payment.tenantId }));
  }
}
