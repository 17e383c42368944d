import type { EntityManager } from '@mikro-orm/postgresql';
import type { OnchainRefund } from '../../core/refunds/onchain-refund';
import type { TenantRefundQuery, TenantRefundReader } from '../../core/refunds/refund-reads';
import type { KeysetPage } from '../../core/shared/keyset-page';
import { decodeCursor, encodeCursor } from './keyset-cursor';
import { OnchainRefundSchema } from './schemas/onchain-refund.schema';

/** A refund id: `rfd_` and a ULID. */
const REFUND_ID = /^rfd_[0-9A-Z]{26}$/;

/**
 * One tenant's onchain refunds (TenantRefundReader port; docs/decisions.md § Refunds), each read on
 * a fresh fork: the list over the (tenant_id, created_at desc, id desc) index, a payment's refund
 * over the unique payment_id.
 */
export class TenantRefundRepository implements TenantRefundReader {
  constructor(private readonly em: EntityManager) {}

  async listForTenant(tenantId: string, query: TenantRefundQuery): Promise<KeysetPage<OnchainRefund> | 'bad_cursor'> {
    const after = query.cursor !== undefined ? decodeCursor(query.cursor, REFUND_ID) : undefined;
    if (query.cursor !== undefined && !after) return 'bad_cursor';
    const where = ['tenant_id = ?'];
    const params: unknown[] = [tenantId];
    if (query.status && query.status.length > 0) {
      where.push(`status in (${query.status.map(() => '?').join(', ')})`);
      params.push(...query.status);
    }
    if (after) {
      where.push('(created_at, id) < (?, ?)');
      params.push(...after);
    }
    const rows = await this.rows(`select * from onchain_refunds where ${where.join(' and ')} order by created_at desc, id desc limit ?`, [...params, query.limit + 1]);
    const entries = rows.slice(0, query.limit);
    const cursors = entries.map((r) => encodeCursor(r.createdAt, r.id));
    return { entries, cursors, ...(rows.length > query.limit ? { nextCursor: cursors[cursors.length - 1] } : {}) };
  }

  async forPayments(tenantId: string, paymentIds: readonly string[]): Promise<OnchainRefund[]> {
    if (paymentIds.length === 0) return [];
    return this.rows(`select * from onchain_refunds where tenant_id = ? and payment_id in (${paymentIds.map(() => '?').join(', ')})`, [tenantId, ...paymentIds]);
  }

  private async rows(sql: string, params: unknown[]): Promise<OnchainRefund[]> {
    const em = this.em.fork();
    return (await em.execute<Record<string, unknown>[]>(sql, params)).map((row) => em.map(OnchainRefundSchema, row));
  }
}
