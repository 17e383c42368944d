import type { EntityManager } from '@mikro-orm/postgresql';
import type { Payment } from '../../core/payments/payment';
import type { ReportWindow, SentPayments } from '../../core/reconciliation/reconciliation-report';
import { PaymentSchema } from './schemas/payment.schema';

/**
 * Our payments that reached a provider, for reconciliation reports (SentPayments port): accepted
 * at some point (`accepted_at` set), created in the window, across tenants, oldest first.
 */
export class SentPaymentsRepository implements SentPayments {
  constructor(private readonly em: EntityManager) {}

  async sentBetween(window: ReportWindow, limit: number): Promise<Payment[]> {
    const em = this.em.fork();
    const rows = await em.execute<Record<string, unknown>[]>(
      `select * from payments where created_at >= ? and created_at < ? and accepted_at is not null order by created_at, id limit ?`,
      [window.from, window.to, limit],
    );
    return rows.map((row) => em.map(PaymentSchema, row));
  }
}
