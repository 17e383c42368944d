import type { Result } from '../shared/result';
import type { Payment, PaymentStatus } from './payment';

/** Columns a move or a reschedule may change. */
export type PaymentPatch = Partial<
  Pick<Payment, 'status' | 'providerRef' | 'failureReason' | 'nextActionAt' | 'acceptedAt' | 'updatedAt'>
>;

/** Port: payment reads outside a transaction. Tenant-scoped: another tenant's id is not found. */
export interface PaymentReader {
  findForTenant(tenantId: string, paymentId: string): Promise<Payment | undefined>;
  /** Across tenants, for admins and workers only. */
  findById(paymentId: string): Promise<Payment | undefined>;
}

/** Port: payment writes inside a unit of work. */
export interface PaymentStore {
  /** Inserts a new payment. Errors: `duplicate_reference` when the tenant already used the reference. */
  insert(payment: Payment): Promise<Result<void, 'duplicate_reference'>>;
  /**
   * Applies `patch` only while the payment is still in `expectedStatus` (optimistic guard, so a
   * provider result delivered twice is applied once). Returns the updated payment, or undefined
   * when the guard did not match.
   */
  update(paymentId: string, expectedStatus: PaymentStatus, patch: PaymentPatch): Promise<Payment | undefined>;
}

/**
 * Port: the payout work queue (DESIGN.md 5). `claimDue` takes up to `limit` payments whose
 * `nextActionAt` is at or before `now`, skipping rows other workers hold (FOR UPDATE SKIP LOCKED),
 * and leases them by moving `nextActionAt` to `leaseUntil` and counting the attempt, so a crashed
 * worker's payments come due again when the lease ends.
 */
export interface PaymentQueue {
  claimDue(now: Date, limit: number, leaseUntil: Date): Promise<Payment[]>;
}
