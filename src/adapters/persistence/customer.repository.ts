import { UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/postgresql';
import type { Customer, CustomerStore, CustomerTxStore, KycStatus } from '../../core/customers/customer';
import type { ComplianceReview } from '../../core/screening/compliance-review';
import { ComplianceReviewTxRepository } from './compliance-review.repository';
import { decodeCursor, encodeCursor } from './keyset-cursor';
import { idNumberHashInput, type PersonalDataBox } from '../providers/personal-data-box';
import { CustomerSchema } from './schemas/customer.schema';
import { WORK_DUE_CHANNEL } from './notify-channels';

/**
 * Customers on PostgreSQL (CustomerStore port), tenant-scoped reads. The id number is sealed by
 * its column type; `box` adds its keyed hash (docs/decisions.md § Personal data and secrets).
 */
export class CustomerRepository implements CustomerStore {
  constructor(private readonly em: EntityManager, private readonly box: PersonalDataBox) {}

  async insert(customer: Customer, review?: ComplianceReview): Promise<'inserted' | 'duplicate_external_id'> {
    const idNumberHash = this.box.keyedHash('id-number', idNumberHashInput(customer.idType, customer.idNumber));
    try {
      await this.em.fork().transactional(async (tem) => {
        await tem.insert(CustomerSchema, { ...customer, idNumberHash });
        // A held customer and its review commit together (docs/decisions.md § Screening); it is not due.
        if (review) await new ComplianceReviewTxRepository(tem).create(review);
        // Its KYC check is due now: wake the KYC workers of every replica at commit (docs/decisions.md § Performance).
        else await tem.execute(`select pg_notify(?, 'kyc')`, [WORK_DUE_CHANNEL]);
      });
      return 'inserted';
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) return 'duplicate_external_id';
      throw error;
    }
  }

  async findForTenant(tenantId: string, customerId: string): Promise<Customer | undefined> {
    return (await this.em.fork().findOne(CustomerSchema, { id: customerId, tenantId })) ?? undefined;
  }

  async list(tenantId: string, limit: number, cursor?: string) {
    const em = this.em.fork();
    const after = cursor ? decodeCursor(cursor, /^cus_[0-9A-Z]{26}$/) : undefined;
    if (cursor && !after) return 'bad_cursor' as const;
    const rows = await em.execute<Record<string, unknown>[]>(
      `select * from customers where tenant_id = ? ${after ? 'and (created_at, id) < (?, ?)' : ''} order by created_at desc, id desc limit ?`,
      [tenantId, ...(after ?? []), limit + 1],
    );
    const entries = rows.slice(0, limit).map((r) => em.map(CustomerSchema, r));
    const last = entries[entries.length - 1];
    const cursors = entries.map((c) => encodeCursor(c.createdAt, c.id));
    return { entries, cursors, ...(rows.length > limit && last ? { nextCursor: encodeCursor(last.createdAt, last.id) } : {}) };
  }

  async claimDue(now: Date, limit: number, leaseUntil: Date): Promise<Customer[]> {
    const em = this.em.fork();
    const rows = await em.execute<Record<string, unknown>[]>(
      `update customers set next_check_at = ?
        where id in (select id from customers where kyc_status = 'pending' and next_check_at <= ?
                      order by next_check_at limit ? for update skip locked)
        returning *`,
      [leaseUntil, now, limit],
    );
    return rows.map((r) => em.map(CustomerSchema, r));
  }

  async reschedule(customerId: string, at: Date, reason?: string): Promise<void> {
    if (reason === undefined) {
      await this.em.fork().execute(`update customers set next_check_at = ? where id = ? and kyc_status = 'pending'`, [at, customerId]);
      return;
    }
    await this.em.fork().execute(
      `update customers set next_check_at = ?, kyc_reason = ?, updated_at = now() where id = ? and kyc_status = 'pending'`,
      [at, reason.slice(0, 500), customerId],
    );
  }
}

/** The KYC decision inside a transaction (CustomerTxStore port): applies only while still pending. */
export class CustomerTxRepository implements CustomerTxStore {
  constructor(private readonly em: EntityManager) {}

  async release(customerId: string, at: Date): Promise<boolean> {
    const rows = await this.em.execute<{ id: string }[]>(
      `update customers set next_check_at = ?, updated_at = ? where id = ? and kyc_status = 'pending' and next_check_at is null returning id`,
      [at, at, customerId],
    );
    // Due at commit: wake the KYC workers of every replica (docs/decisions.md § Performance).
    if (rows.length > 0) await this.em.execute(`select pg_notify(?, 'kyc')`, [WORK_DUE_CHANNEL]);
    return rows.length > 0;
  }

  async decide(customerId: string, status: Exclude<KycStatus, 'pending'>, reason: string | null, at: Date): Promise<Customer | undefined> {
    const rows = await this.em.execute<Record<string, unknown>[]>(
      `update customers set kyc_status = ?, kyc_reason = ?, next_check_at = null, updated_at = ?
        where id = ? and kyc_status = 'pending' returning *`,
      [status, reason, at, customerId],
    );
    // Mapped on a fork: an entity managed by the transaction's manager would be flushed at commit,
    // and its sealed id number would be written again under a new nonce (docs/decisions.md § Personal data and secrets).
    return rows[0] ? this.em.fork().map(CustomerSchema, rows[0]) : undefined;
  }
}
