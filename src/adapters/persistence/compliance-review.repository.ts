import type { EntityManager } from '@mikro-orm/postgresql';
import type {
  ComplianceReview, ComplianceReviewStore, ComplianceReviewTxStore, ReviewStatus,
} from '../../core/screening/compliance-review';
import type { ScreeningHit } from '../../core/screening/sanctions-screen';

interface ReviewRow {
  payment_id: string;
  tenant_id: string;
  status: ReviewStatus;
  hits: ScreeningHit[] | string;
  created_at: Date;
  decided_by: string | null;
  decided_at: Date | null;
  reason: string | null;
}

function reviewOf(row: ReviewRow): ComplianceReview {
  return {
    paymentId: row.payment_id, tenantId: row.tenant_id, status: row.status,
    hits: typeof row.hits === 'string' ? (JSON.parse(row.hits) as ScreeningHit[]) : row.hits,
    createdAt: new Date(row.created_at), decidedBy: row.decided_by, decidedAt: row.decided_at ? new Date(row.decided_at) : null, reason: row.reason,
  };
}

/**
 * Compliance reviews in `compliance_reviews` (docs/decisions.md § Screening), inside one transaction
 * (`em` is the transaction's manager): created with the held payment, decided once under a status guard.
 */
export class ComplianceReviewTxRepository implements ComplianceReviewTxStore {
  constructor(private readonly em: EntityManager) {}

  async create(review: ComplianceReview): Promise<void> {
    await this.em.execute(
      'insert into compliance_reviews (payment_id, tenant_id, status, hits, created_at, decided_by, decided_at, reason) values (?, ?, ?, ?::jsonb, ?, ?, ?, ?)',
      [review.paymentId, review.tenantId, review.status, JSON.stringify(review.hits), review.createdAt, review.decidedBy, review.decidedAt, review.reason],
    );
  }

  async decide(paymentId: string, from: ReviewStatus, to: ReviewStatus, decidedBy: string, reason: string, at: Date): Promise<ComplianceReview | undefined> {
    const rows = await this.em.execute<ReviewRow[]>(
      'update compliance_reviews set status = ?, decided_by = ?, reason = ?, decided_at = ? where payment_id = ? and status = ? returning *',
      [to, decidedBy, reason, at, paymentId, from],
    );
    return rows[0] ? reviewOf(rows[0]) : undefined;
  }
}

/** The review queue outside transactions (ComplianceReviewStore port). */
export class ComplianceReviewRepository implements ComplianceReviewStore {
  constructor(private readonly em: EntityManager) {}

  async list(status: ReviewStatus | undefined, limit: number): Promise<ComplianceReview[]> {
    const rows = await this.em.getConnection().execute<ReviewRow[]>(
      status
        ? 'select * from compliance_reviews where status = ? order by created_at, payment_id limit ?'
        : 'select * from compliance_reviews order by created_at, payment_id limit ?',
      status ? [status, limit] : [limit],
    );
    return rows.map(reviewOf);
  }

  async find(paymentId: string): Promise<ComplianceReview | undefined> {
    const rows = await this.em.getConnection().execute<ReviewRow[]>('select * from compliance_reviews where payment_id = ?', [paymentId]);
    return rows[0] ? reviewOf(rows[0]) : undefined;
  }
}
