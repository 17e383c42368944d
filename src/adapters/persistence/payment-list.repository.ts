import type { EntityManager } from '@mikro-orm/postgresql';
import type { PaymentLister, PaymentListQuery, PaymentRowPage } from '../../core/payments/list-payments';
import { decodeCursor, encodeCursor } from './keyset-cursor';
import { PaymentSchema } from './schemas/payment.schema';

const PAYMENT_ID = /^pay_[0-9A-Z]{26}$/;

/**
 * The tenant's payments, newest first, by keyset on (created_at, id) (PaymentLister port).
 * Served by the index payments_tenant_created_idx; filters are AND-ed, list filters use `in`.
 */
export class PaymentListRepository implements PaymentLister {
  constructor(private readonly em: EntityManager) {}

  async listForTenant(tenantId: string, query: PaymentListQuery): Promise<PaymentRowPage | 'bad_cursor'> {
    const after = query.after !== undefined ? decodeCursor(query.after, PAYMENT_ID) : undefined;
    if (query.after !== undefined && !after) return 'bad_cursor';
    const where: string[] = ['tenant_id = ?'];
    const params: unknown[] = [tenantId];
    const f = query.filter ?? {};
    const add = (condition: string, ...values: unknown[]) => {
      where.push(condition);
      params.push(...values);
    };
    const anyOf = (column: string, values: readonly string[] | undefined) => {
      if (values && values.length > 0) add(`${column} in (${values.map(() => '?').join(', ')})`, ...values);
    };
    anyOf('status', f.status);
    anyOf('payment_method', f.paymentMethod);
    anyOf('destination_currency', f.destinationCurrency);
    anyOf('country', f.country);
    if (f.reference !== undefined) add('reference = ?', f.reference);
    if (f.createdFrom) add('created_at >= ?', f.createdFrom);
    if (f.createdTo) add('created_at < ?', f.createdTo);
    if (after) add('(created_at, id) < (?, ?)', ...after);

    const em = this.em.fork();
    const rows = await em.execute<Record<string, unknown>[]>(
      `select * from payments where ${where.join(' and ')} order by created_at desc, id desc limit ?`,
      [...params, query.first + 1],
    );
    const entries = rows.slice(0, query.first).map((row) => {
      const payment = em.map(PaymentSchema, row);
      return { payment, cursor: encodeCursor(payment.createdAt, payment.id) };
    });
    return { entries, hasNextPage: rows.length > query.first };
  }
}
