import type { EntityManager } from '@mikro-orm/postgresql';
import type { Blockchain } from '../../core/catalog/catalog';
import type { OnchainRefund, RefundReader, RefundStatus, RefundStore } from '../../core/refunds/onchain-refund';
import { formatAmount, type Stablecoin } from '../../core/shared/money';
import { OnchainRefundSchema } from './schemas/onchain-refund.schema';
import { insertStatement } from './raw-insert';

/** Onchain refunds inside one transaction (RefundStore port); `em` is the transaction's manager. */
export class OnchainRefundTxStore implements RefundStore {
  constructor(private readonly em: EntityManager) {}

  async create(refund: OnchainRefund): Promise<void> {
    await this.em.execute(...insertStatement(this.em, OnchainRefundSchema, refund));
  }

  async lockById(refundId: string): Promise<OnchainRefund | undefined> {
    const rows = await this.em.execute<Record<string, unknown>[]>('select * from onchain_refunds where id = ? for update', [refundId]);
    return rows[0] ? this.em.map(OnchainRefundSchema, rows[0]) : undefined;
  }

  async markSent(refundId: string, txHash: string, at: Date): Promise<OnchainRefund> {
    const rows = await this.em.execute<Record<string, unknown>[]>(
      `update onchain_refunds set status = 'sent', tx_hash = ?, sent_at = ? where id = ? and status = 'pending' returning *`, [txHash, at, refundId],
    );
    if (!rows[0]) throw new Error(`refund ${refundId} is not pending`);
    return this.em.map(OnchainRefundSchema, rows[0]);
  }

  /** Looks up (blockchain, tx_hash) only, a prefix of the deposits' unique key: one index probe. */
  async isDepositTransaction(blockchain: Blockchain, txHash: string): Promise<boolean> {
    const rows = await this.em.execute<unknown[]>('select 1 from deposits where blockchain = ? and tx_hash = ? limit 1', [blockchain, txHash]);
    return rows.length > 0;
  }
}

/** Onchain refund reads (RefundReader port), each on a fresh fork. */
export class OnchainRefundReadRepository implements RefundReader {
  constructor(private readonly em: EntityManager) {}

  async list(status: RefundStatus | undefined, limit: number): Promise<OnchainRefund[]> {
    return this.em.fork().find(OnchainRefundSchema, status ? { status } : {}, { orderBy: { createdAt: 'asc', id: 'asc' }, limit });
  }

  async pendingTotals(): Promise<{ currency: Stablecoin; count: number; amount: string }[]> {
    const rows = await this.em.fork().execute<{ currency: Stablecoin; count: number; amount: string }[]>(
      `select currency, count(*)::int as count, sum(amount)::text as amount from onchain_refunds where status = 'pending' group by currency order by currency`,
    );
    return rows.map((r) => ({ currency: r.currency, count: r.count, amount: formatAmount(r.amount, r.currency) }));
  }
}
