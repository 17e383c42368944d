import type { EntityManager } from '@mikro-orm/postgresql';
import type { QueueCountReader, QueueCounts } from '../../core/operators/operator-queues';

/** The console's queue counts (QueueCountReader port) in one statement. */
export class OperatorQueuesRepository implements QueueCountReader {
  constructor(private readonly em: EntityManager) {}

  async counts(stuckBefore: Date): Promise<Omit<QueueCounts, 'stuckAfterMinutes'>> {
    const [row] = await this.em.getConnection().execute<Omit<QueueCounts, 'stuckAfterMinutes'>[]>(
      `select (select count(*) from onchain_refunds where status = 'pending')::int as "refundsPending",
              (select count(*) from onchain_refunds where status = 'failed')::int as "refundsFailed",
              (select count(*) from reconciliation_checks r join payments p on p.id = r.payment_id
                where r.finding is not null and p.status in ('initiated', 'provider_accepted'))::int as "reconciliationFindings",
              (select count(*) from deposit_findings)::int as "depositFindings",
              (select count(*) from compliance_reviews where status = 'pending')::int as "complianceReviewsPending",
              (select count(*) from payments where status = 'provider_accepted' and accepted_at < ?)::int as "stuckPayments"`,
      [stuckBefore],
    );
    return row!;
  }
}
