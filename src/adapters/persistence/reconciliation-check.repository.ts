import type { EntityManager } from '@mikro-orm/postgresql';
import type { Payment } from '../../core/payments/payment';
import type { UnknownStatusSeen } from '../../core/payments/payout-provider';
import type { MismatchKind, ReconciliationChecks, ReconciliationFinding } from '../../core/reconciliation/reconciliation-ports';
import { unknownStatusDetail } from '../../core/reconciliation/resolve-stuck-payments';
import { PaymentSchema } from './schemas/payment.schema';

interface FindingRow {
  payment_id: string; tenant_id: string; provider: string | null; finding: MismatchKind; finding_detail: string | null; checked_at: Date;
}

/**
 * The reconciliation worker's queue and findings (ReconciliationChecks port) on PostgreSQL. One
 * statement claims: it locks the stuck payments it picks (SKIP LOCKED, so replicas split them) and
 * leases each through its `reconciliation_checks` row.
 */
export class ReconciliationCheckRepository implements ReconciliationChecks {
  constructor(private readonly em: EntityManager) {}

  async claimStuck(now: Date, acceptedBefore: Date, limit: number, leaseUntil: Date): Promise<Payment[]> {
    const em = this.em.fork();
    const rows = await em.execute<Record<string, unknown>[]>(
      `with stuck as (
         select p.id, p.tenant_id from payments p
           left join reconciliation_checks r on r.payment_id = p.id
          where p.status = 'provider_accepted' and p.accepted_at <= ? and (r.next_check_at is null or r.next_check_at <= ?)
          order by p.accepted_at limit ? for update of p skip locked),
       leased as (
         insert into reconciliation_checks (payment_id, tenant_id, checks, next_check_at)
         select id, tenant_id, 1, ? from stuck
         on conflict (payment_id) do update set next_check_at = excluded.next_check_at, checks = reconciliation_checks.checks + 1
         returning payment_id)
       select p.* from payments p join leased on leased.payment_id = p.id order by p.accepted_at`,
      [acceptedBefore, now, limit, leaseUntil],
    );
    return rows.map((row) => em.map(PaymentSchema, row));
  }

  async recordCheck(check: Parameters<ReconciliationChecks['recordCheck']>[0]): Promise<void> {
    await this.em.fork().execute(
      `update reconciliation_checks set provider = coalesce(?, provider), checked_at = ?, next_check_at = ?, finding = ?, finding_detail = ?
        where payment_id = ?`,
      [check.provider, check.checkedAt, check.nextCheckAt, check.finding?.kind ?? null, check.finding?.detail ?? null, check.paymentId],
    );
  }

  /**
   * Keeps (or refreshes) the `unknown_provider_status` finding of a payment seen by the payout
   * worker or a callback. A payment the reconciliation worker never claimed gets its row here, due
   * at once (its claim still waits until the payment is stuck); an existing row keeps its schedule
   * and count, and its finding is replaced.
   */
  async recordUnknownStatus(seen: UnknownStatusSeen): Promise<void> {
    await this.em.fork().execute(
      `insert into reconciliation_checks (payment_id, tenant_id, provider, checks, checked_at, next_check_at, finding, finding_detail)
       values (?, ?, ?, 0, ?, ?, 'unknown_provider_status', ?)
       on conflict (payment_id) do update set provider = excluded.provider, checked_at = excluded.checked_at,
         finding = excluded.finding, finding_detail = excluded.finding_detail`,
      [seen.paymentId, seen.tenantId, seen.provider, seen.seenAt, seen.seenAt, unknownStatusDetail(seen.provider, seen.providerStatus)],
    );
  }

  /** Findings on payments still `initiated` or `provider_accepted`: a final payment's finding was answered by its outcome. */
  async listFindings(limit: number): Promise<ReconciliationFinding[]> {
    const rows = await this.em.fork().execute<FindingRow[]>(
      `select r.* from reconciliation_checks r join payments p on p.id = r.payment_id
        where r.finding is not null and p.status in ('initiated', 'provider_accepted')
        order by r.checked_at desc, r.payment_id limit ?`,
      [limit],
    );
    return rows.map((r) => ({
      paymentId: r.payment_id, tenantId: r.tenant_id, provider: r.provider ?? 'unknown', kind: r.finding,
      detail: r.finding_detail ?? '', seenAt: new Date(r.checked_at),
    }));
  }
}
