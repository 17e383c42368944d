import type { EntityManager } from '@mikro-orm/postgresql';
import type { PaymentLister, PaymentListQuery, PaymentRowPage } from '../../core/payments/list-payments';
import { decodeCursor, encodeCursor } from './keyset-cursor';
import { PaymentSchema } from './schemas/payment.schema';

const PAYMENT_ID = /^pay_[0-9A-Z]{26}$/;

/**
 * The tenant's payments, newest first, by keyset on (created_at, id) (PaymentLister port), paged
 * forward (older than `after`) or backward (newer than `before`, read oldest first and turned
 * round). Served by the index payments_tenant_created_idx; filters are AND-ed, list filters use
 * `in`. Whether rows lie beyond the cursor a page started from is one more indexed `exists`.
 */
export class PaymentListRepository implements PaymentLister {
  constructor(private readonly em: EntityManager) {}

  async listForTenant(tenantId: string, query: PaymentListQuery): Promise<PaymentRowPage | 'bad_cursor'> {
    const backward = query.direction === 'backward';
    const given = backward ? query.before : query.after;
    const cursor = given !== undefined ? decodeCursor(given, PAYMENT_ID) : undefined;
    if (given !== undefined && !cursor) return 'bad_cursor';
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
    const filtered = where.join(' and ');
    const filterParams = [...params];

    const em = this.em.fork();
    // Rows on the far side of the cursor: newer than `after` paging forward, older than `before` backward.
    const beyond = cursor
      ? (await em.execute<unknown[]>(
        `select 1 from payments where ${filtered} and (created_at, id) ${backward ? '<=' : '>='} (?, ?) limit 1`,
        [...filterParams, ...cursor],
      )).length > 0
      : false;
    if (cursor) add(`(created_at, id) ${backward ? '>' : '<'} (?, ?)`, ...cursor);
    const order = backward ? 'asc' : 'desc';
    const rows = await em.execute<Record<string, unknown>[]>(
      `select * from payments where ${where.join(' and ')} order by created_at ${order}, id ${order} limit ?`,
      [...params, query.first + 1],
    );
    const page = rows.slice(0, query.first);
    if (backward) page.reverse();
    const entries = page.map((row) => {
      const payment = em.map(PaymentSchema, row);
      return { payment, cursor: encodeCursor(payment.createdAt, payment.id) };
    });
    const more = rows.length > query.first;
    return backward ? { entries, hasNextPage: beyond, hasPreviousPage: more } : { entries, hasNextPage: more, hasPreviousPage: beyond };
  }
}
