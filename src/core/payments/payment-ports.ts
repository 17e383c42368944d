import type { OutboxEvent } from '../events/outbox-event';
import type { IdempotencyRecord } from '../idempotency/idempotency';
import type { Transfer } from '../ledger/ledger';
import type { Payment, PaymentStatus } from './payment';
import type { PaymentViewSource } from './payment-view';

/** Everything a new payment writes (docs/decisions.md § Payments: states and events and § Idempotency and § Ledger): the row, its event, the response under its key, the hold. */
export interface NewPaymentWrite {
  readonly payment: Payment;
  readonly event: OutboxEvent;
  readonly idempotency: IdempotencyRecord;
  /** Posted last: it locks the tenant's balance row until commit. Must require funds. */
  readonly hold: Transfer;
}

/**
 * Port: a new payment's whole write as ONE round trip to the database, in a transaction of its own
 * (docs/decisions.md § Performance: a money-out in one round trip). It takes the same idempotency
 * lock as IdempotencyStore.lock for `write.idempotency`'s tenant and key and writes everything only
 * when that lock was free, no record unexpired at `write.payment.createdAt` is stored under the key,
 * and the hold's balance slot alone covers the amount. Answers:
 * - `created`: all of `write` committed;
 * - `duplicate_reference`: the tenant already has a payment with this reference; nothing written;
 * - `undecided`: nothing written, because the key is in flight or already recorded, or the hold
 *   would have to gather from several slots or be refused. The caller then takes the transactional
 *   path (UnitOfWork), which answers each of those precisely.
 */
export interface OneTripPaymentWriter {
  createIfFirst(write: NewPaymentWrite): Promise<'created' | 'duplicate_reference' | 'undecided'>;
}

/**
 * Everything one move writes (docs/decisions.md § Payments: states and events, § Ledger), applied
 * only while the payment is still in `from`: the patch, its outbox event and its ledger transfer.
 */
export interface PaymentMoveWrite {
  readonly paymentId: string;
  /** The status the move starts from: the write applies only while the payment is in it. */
  readonly from: PaymentStatus;
  readonly patch: PaymentPatch;
  /** Its payload is the payment's view as the patch leaves it. */
  readonly event: OutboxEvent;
  /** Posted in the payment's balance slot, unchecked (a move only carries what the hold set aside). */
  readonly transfer: Transfer;
}

/** Columns a move or a reschedule may change. */
export type PaymentPatch = Partial<
  Pick<Payment, 'status' | 'providerRef' | 'failureReason' | 'failureCode' | 'nextActionAt' | 'acceptedAt' | 'updatedAt' | 'provider' | 'submittedAt'>
>;

/** Port: payment reads outside a transaction. Tenant-scoped: another tenant's id is not found. */
export interface PaymentReader {
  findForTenant(tenantId: string, paymentId: string): Promise<Payment | undefined>;
  /**
   * Only the fields the payment's public view shows (OpenAPI getPayment), tenant-scoped: the hot
   * read of one payment, which needs no recipient details (docs/decisions.md § Performance).
   */
  findViewForTenant(tenantId: string, paymentId: string): Promise<PaymentViewSource | undefined>;
  /** Across tenants, for admins and workers only. */
  findById(paymentId: string): Promise<Payment | undefined>;
}

/** Port: payment writes inside a unit of work. */
export interface PaymentStore {
  /**
   * Writes a new payment with its outbox event, idempotency record and balance hold, in the
   * caller's transaction and in one round trip. `duplicate_reference` when the tenant already
   * used the reference; `insufficient_funds` when the hold does not fit (the caller rolls back).
   */
  create(write: NewPaymentWrite): Promise<'created' | 'duplicate_reference' | 'insufficient_funds'>;
  /**
   * Applies `patch` only while the payment is still in `expectedStatus` (optimistic guard, so a
   * provider result delivered twice is applied once). Returns the updated payment, or undefined
   * when the guard did not match.
   */
  update(paymentId: string, expectedStatus: PaymentStatus, patch: PaymentPatch): Promise<Payment | undefined>;
  /**
   * Applies a move's whole write in the caller's transaction, in one round trip: the status-guarded
   * patch and, only when it applied, the outbox event and the ledger transfer. Returns the payment
   * as written; `moved_concurrently` when the payment is no longer in `write.from` (nothing
   * written); `ledger_refused` when the ledger already holds this transfer (the caller rolls back).
   */
  move(write: PaymentMoveWrite): Promise<Payment | 'moved_concurrently' | 'ledger_refused'>;
}

/**
 * Port: the payout work queue (docs/decisions.md § Payments: states and events). `claimDue` takes up to `limit` payments whose
 * `nextActionAt` is at or before `now`, skipping rows other workers hold (FOR UPDATE SKIP LOCKED),
 * and leases them by moving `nextActionAt` to `leaseUntil` and counting the attempt, so a crashed
 * worker's payments come due again when the lease ends.
 */
export interface PaymentQueue {
  claimDue(now: Date, limit: number, leaseUntil: Date): Promise<Payment[]>;
}
