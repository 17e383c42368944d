import type { EntityManager } from '@mikro-orm/postgresql';
import type { Blockchain } from '../../core/catalog/catalog';
import type { OnchainRefund, RefundAction, RefundReader, RefundStatus, RefundStore } from '../../core/refunds/onchain-refund';
import { formatAmount, type Stablecoin } from '../../core/shared/money';
import { OnchainRefundSchema } from './schemas/onchain-refund.schema';
import { insertStatement } from './raw-insert';
import type { RefundAttempt } from '../../core/refunds/refund-sender';
import type { RefundFailureReason } from '../../core/refunds/refund-refusal';
import { ATTEMPT_COLUMNS, attemptOf, attemptValues, type RefundAttemptRow } from './refund-attempt-rows';

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
      `update onchain_refunds set status = 'sent', tx_hash = ?, sent_at = ?, failure_reason = null
        where id = ? and status in ('pending', 'failed') returning *`, [txHash, at, refundId],
    );
    if (!rows[0]) throw new Error(`refund ${refundId} is neither pending nor failed`);
    return this.em.map(OnchainRefundSchema, rows[0]);
  }

  /** Looks up (blockchain, tx_hash) only, a prefix of the deposits' unique key: one index probe. */
  async isDepositTransaction(blockchain: Blockchain, txHash: string): Promise<boolean> {
    const rows = await this.em.execute<unknown[]>('select 1 from deposits where blockchain = ? and tx_hash = ? limit 1', [blockchain, txHash]);
    return rows.length > 0;
  }

  /** One probe of onchain_refunds_tx_hash_idx (blockchain, tx_hash). */
  async amountsSentIn(blockchain: Blockchain, txHash: string, refundAddress: string, exceptRefundId: string): Promise<string[]> {
    const rows = await this.em.execute<Array<{ amount: string; currency: Stablecoin }>>(
      `select amount::text as amount, currency from onchain_refunds
        where blockchain = ? and tx_hash = ? and id <> ? and (refund_address = ? or (blockchain = 'BSC' and lower(refund_address) = lower(?)))`,
      [blockchain, txHash, exceptRefundId, refundAddress, refundAddress],
    );
    return rows.map((r) => formatAmount(r.amount, r.currency));
  }

  async setStatus(
    refundId: string, from: RefundStatus, to: RefundStatus, txHash: string | null, sentAt: Date | null, failureReason: RefundFailureReason | null = null,
  ): Promise<OnchainRefund> {
    const rows = await this.em.execute<Record<string, unknown>[]>(
      'update onchain_refunds set status = ?, tx_hash = ?, sent_at = ?, failure_reason = ? where id = ? and status = ? returning *',
      [to, txHash, sentAt, failureReason, refundId, from],
    );
    if (!rows[0]) throw new Error(`refund ${refundId} is not ${from}`);
    return this.em.map(OnchainRefundSchema, rows[0]);
  }

  /** Served by the pending partial index; rows another sender holds are skipped, not waited for. */
  async nextPending(blockchain: Blockchain): Promise<OnchainRefund | undefined> {
    const rows = await this.em.execute<Record<string, unknown>[]>(
      `select r.* from onchain_refunds r where r.status = 'pending' and r.blockchain = ?
          and not exists (select 1 from onchain_refund_attempts a where a.refund_id = r.id and a.status in ('signed', 'broadcast'))
        order by r.created_at, r.id limit 1 for update of r skip locked`, [blockchain],
    );
    return rows[0] ? this.em.map(OnchainRefundSchema, rows[0]) : undefined;
  }

  async openAttempt(blockchain: Blockchain, wallet: string): Promise<RefundAttempt | undefined> {
    const rows = await this.em.execute<RefundAttemptRow[]>(
      `select * from onchain_refund_attempts where blockchain = ? and wallet = ? and status in ('signed', 'broadcast')`, [blockchain, wallet],
    );
    return rows[0] ? attemptOf(rows[0]) : undefined;
  }

  async lastNonce(blockchain: Blockchain, wallet: string): Promise<bigint | null> {
    const rows = await this.em.execute<{ nonce: string | null }[]>(
      'select max(nonce)::text as nonce from onchain_refund_attempts where blockchain = ? and wallet = ?', [blockchain, wallet],
    );
    return rows[0]?.nonce == null ? null : BigInt(rows[0].nonce);
  }

  async recordAction(action: RefundAction): Promise<void> {
    await this.em.execute(
      'insert into onchain_refund_actions (refund_id, action, actor, from_status, to_status, tx_hash, created_at) values (?, ?, ?, ?, ?, ?, ?)',
      [action.refundId, action.action, action.actor, action.from, action.to, action.txHash, action.at],
    );
  }

  async createAttempt(attempt: RefundAttempt): Promise<void> {
    await this.em.execute(
      `insert into onchain_refund_attempts (${ATTEMPT_COLUMNS.join(', ')}) values (${ATTEMPT_COLUMNS.map((c) => (c === 'tx_hashes' ? '?::text[]' : '?')).join(', ')})`, attemptValues(attempt),
    );
  }

  async updateAttempt(attempt: RefundAttempt): Promise<void> {
    const [id, ...values] = attemptValues(attempt);
    const rows = await this.em.execute<unknown[]>(
      `update onchain_refund_attempts set ${ATTEMPT_COLUMNS.slice(1).map((c) => `${c} = ?${c === 'tx_hashes' ? '::text[]' : ''}`).join(', ')} where id = ? returning 1`, [...values, id],
    );
    if (rows.length === 0) throw new Error(`refund attempt ${attempt.id} is gone`);
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
