import type { EntityManager } from '@mikro-orm/postgresql';
import { MOVABLE_STATUSES } from '../../core/payments/payment-state';

/** The work queues a polling worker drains: payouts, webhook deliveries, KYC checks. */
export type WorkQueue = 'payouts' | 'webhooks' | 'kyc';

/** Earliest due time of each queue; each reads the start of the queue's partial index (payments_due_idx, webhook_deliveries_due_idx, customers_kyc_due_idx). */
const NEXT_DUE_SQL: Record<WorkQueue, string> = {
  payouts: `select min(next_action_at) as at from payments
             where next_action_at is not null and status in (${MOVABLE_STATUSES.map((s) => `'${s}'`).join(', ')})`,
  webhooks: `select min(next_retry_at) as at from webhook_deliveries where status = 'pending'`,
  kyc: `select min(next_check_at) as at from customers where next_check_at is not null and kyc_status = 'pending'`,
};

/**
 * When a queue's next row falls due (docs/decisions.md § Performance: the workers sleep until then,
 * or until a NOTIFY wakes them, instead of polling). Leased rows count at their lease's end, so a
 * crashed worker's rows are looked at when it ends. One cheap statement, outside any transaction.
 */
export class WorkDueRepository {
  constructor(private readonly em: EntityManager) {}

  /** The earliest `next_*_at` of `queue`'s pending rows, or undefined when it holds none. */
  async nextDueAt(queue: WorkQueue): Promise<Date | undefined> {
    const [row] = await this.em.getConnection().execute<{ at: Date | string | null }[]>(NEXT_DUE_SQL[queue]);
    return row?.at ? new Date(row.at) : undefined;
  }
}
