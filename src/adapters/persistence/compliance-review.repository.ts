import type { EntityManager } from '@mikro-orm/postgresql';
import type {
  ComplianceReview, ComplianceReviewStore, ComplianceReviewTxStore, ReviewStatus, ReviewSubject,
} from '../../core/screening/compliance-review';
import type { ScreeningHit } from '../../core/screening/sanctions-screen';

interface ReviewRow {
  subject_kind: ReviewSubject;
  subject_id: string;
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
    subjectKind: row.subject_kind, subjectId: row.subject_id, tenantId: row.tenant_id, status: row.status,
    hits: typeof row.hits === 'string' ? (JSON.parse(row.hits) as ScreeningHit[]) : row.hits,
    createdAt: new Date(row.created_at), decidedBy: row.decided_by, decidedAt: row.decided_at ? new Date(row.decided_at) : null, reason: row.reason,
  };
}

/**
 * Compliance reviews in `compliance_reviews` (docs/decisions.md § Screening), inside one transaction
 * (`em` is the transaction's manager): created with the held subject, decided once under a status guard.
 */
export class ComplianceReviewTxRepository implements ComplianceReviewTxStore {
  constructor(private readonly em: EntityManager) {}

  async create(review: ComplianceReview): Promise<void> {
    await this.em.execute(
      'insert into compliance_reviews (subject_kind, subject_id, tenant_id, status, hits, created_at, decided_by, decided_at, reason) values (?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?)',
      [review.subjectKind, review.subjectId, review.tenantId, review.status, JSON.stringify(review.hits), review.createdAt, review.decidedBy, review.decidedAt, review.reason],
    );
  }

  async decide(subjectId: string, from: ReviewStatus, to: ReviewStatus, decidedBy: string, reason: string, at: Date): Promise<ComplianceReview | undefined> {
    const rows = await this.em.execute<ReviewRow[]>(
      'update compliance_reviews set status = ?, decided_by = ?, reason = ?, decided_at = ? where subject_id = ? and status = ? returning *',
      [to, decidedBy, reason, at, subjectId, from],
    );
    return rows[0] ? reviewOf(rows[0]) : undefined;
  }
}

/** The review queue outside transactions (ComplianceReviewStore port). */
export class ComplianceReviewRepository implements ComplianceReviewStore {
  constructor(private readonly em: EntityManager) {}

  async list(status: ReviewStatus | undefined, limit: number, kind?: ReviewSubject): Promise<ComplianceReview[]> {
    const where = [...(status ? ['status = ?'] : []), ...(kind ? ['subject_kind = ?'] : [])];
    const rows = await this.em.getConnection().execute<ReviewRow[]>(
      `select * from compliance_reviews ${where.length > 0 ? `where ${where.join(' and ')}` : ''} order by created_at, subject_id limit ?`,
      [...(status ? [status] : []), ...(kind ? [kind] : []), limit],
    );
    return rows.map(reviewOf);
  }

  async find(subjectId: string): Promise<ComplianceReview | undefined> {
    const rows = await this.em.getConnection().execute<ReviewRow[]>('select * from compliance_reviews where subject_id = ?', [subjectId]);
    return rows[0] ? reviewOf(rows[0]) : undefined;
  }
}
