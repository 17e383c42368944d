import { Customer, type CustomerStore } from '../../src/core/customers/customer';
import type { ComplianceReview } from '../../src/core/screening/compliance-review';
import type { MemoryStore } from './fakes';

/** Customers in memory, sharing the unit of work's customer map (its `decide` writes there). */
export class MemoryCustomers implements CustomerStore {
  readonly rescheduled: Array<[string, Date]> = [];
  readonly claims: Array<[Date, number, Date]> = [];
  constructor(private readonly store: MemoryStore) {}
  async insert(customer: Customer, review?: ComplianceReview) {
    const clash = [...this.store.customers.values()].some((c) => c.tenantId === customer.tenantId && c.externalId === customer.externalId);
    if (clash) return 'duplicate_external_id' as const;
    this.store.customers.set(customer.id, customer);
    if (review) this.store.reviews.set(review.subjectId, review);
    return 'inserted' as const;
  }
  async findForTenant(tenantId: string, customerId: string) {
    const c = this.store.customers.get(customerId);
    return c?.tenantId === tenantId ? c : undefined;
  }
  async list(tenantId: string, limit: number, cursor?: string) {
    if (cursor === 'bad') return 'bad_cursor' as const;
    const mine = [...this.store.customers.values()].filter((c) => c.tenantId === tenantId).reverse();
    const from = cursor ? Number(cursor) : 0;
    const entries = mine.slice(from, from + limit);
    const cursors = entries.map((_, i) => String(from + i + 1));
    return from + limit < mine.length ? { entries, cursors, nextCursor: String(from + limit) } : { entries, cursors };
  }
  async claimDue(now: Date, limit: number, leaseUntil: Date) {
    this.claims.push([now, limit, leaseUntil]);
    const due = [...this.store.customers.values()].filter((c) => c.kycStatus === 'pending' && c.nextCheckAt !== null && c.nextCheckAt <= now).slice(0, limit);
    for (const c of due) this.store.customers.set(c.id, new Customer({ ...c, nextCheckAt: leaseUntil }));
    return due;
  }
  async reschedule(customerId: string, at: Date, reason?: string) {
    this.rescheduled.push([customerId, at]);
    const c = this.store.customers.get(customerId)!;
    this.store.customers.set(customerId, new Customer({ ...c, nextCheckAt: at, ...(reason !== undefined ? { kycReason: reason } : {}) }));
  }
}

