import { UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/postgresql';
import { Payment, type PaymentStatus } from '../../core/payments/payment';
import { MOVABLE_STATUSES } from '../../core/payments/payment-state';
import type { NewPaymentWrite, PaymentMoveWrite, PaymentPatch, PaymentQueue, PaymentReader, PaymentStore } from '../../core/payments/payment-ports';
import type { IdGenerator } from '../../core/shared/clock';
import { idempotencySaveStatement } from './idempotency.store';
import { LedgerTxStore, ledgerPostStatement } from './ledger.repository';
import { outboxStatement } from './outbox.writer';
import { CommitNotices } from './commit-notices';
import { PaymentSchema } from './schemas/payment.schema';
import { insertStatement } from './raw-insert';
import { rowReader } from './raw-read';
import { preparedRead } from './prepared-read';
import { CoalescedPaymentViewReader, PAYMENT_VIEWS_SQL } from './payment-view.reader';
import type { PaymentViewSource } from '../../core/payments/payment-view';
import { paymentMovesStatement, paymentPatchesStatement, type GuardedPatch } from './payment-move.statement';

/**
 * Payment reads outside transactions (PaymentReader port): one statement on the ORM's connection,
 * rows read by `rowReader`, no unit of work (a hot path: docs/decisions.md § Performance).
 */
export class PaymentReadRepository implements PaymentReader {
  private readonly read: (row: Record<string, unknown>) => Payment;
  private readonly views: CoalescedPaymentViewReader;

  constructor(private readonly em: EntityManager) {
    this.read = rowReader(em, PaymentSchema);
    this.views = new CoalescedPaymentViewReader((keys) => preparedRead(em, 'payment_views_for_tenants', PAYMENT_VIEWS_SQL,
      [keys.map((k) => k.paymentId), keys.map((k) => k.tenantId)]));
  }

  async findForTenant(tenantId: string, paymentId: string): Promise<Payment | undefined> {
    const [row] = await this.em.getConnection().execute<Record<string, unknown>[]>(
      'select * from payments where id = ? and tenant_id = ?', [paymentId, tenantId]);
    return row ? this.read(row) : undefined;
  }

  /** One statement for every view read in the same turn of the event loop (CoalescedPaymentViewReader). */
  findViewForTenant(tenantId: string, paymentId: string): Promise<PaymentViewSource | undefined> {
    return this.views.read(tenantId, paymentId);
  }

  async findById(paymentId: string): Promise<Payment | undefined> {
    const [row] = await this.em.getConnection().execute<Record<string, unknown>[]>('select * from payments where id = ?', [paymentId]);
    return row ? this.read(row) : undefined;
  }
}

/**
 * The statements of a new payment (NewPaymentWrite), formatted for one simple query, in order: the
 * payment row, its outbox event with its deliveries, its idempotency record, and last
 * the ledger hold, which locks one of the tenant's balance slots until commit; the hold returns one
 * row per ledger entry written (none when its slot does not cover it). `hold` says which slot it
 * took and its ledger transaction's id.
 */
export function newPaymentStatements(em: EntityManager, ids: IdGenerator, write: NewPaymentWrite): {
  statements: string[]; hold: { holdSlot: number; transactionId: string };
} {
  const platform = em.getPlatform();
  const hold = ledgerPostStatement(write.hold, ids);
  const statements = [
    insertStatement(em, PaymentSchema, write.payment),
    outboxStatement(em, write.event),
    idempotencySaveStatement(em, write.idempotency),
    hold.statement,
  ].map(([sql, params]) => platform.formatQuery(sql, params));
  return { statements, hold };
}

/**
 * Payment writes inside one transaction (PaymentStore port); `em` is the transaction's manager.
 * The events it writes add their wake-ups to `notices`, sent once the transaction commits.
 */
export class PaymentTxRepository implements PaymentStore {
  constructor(private readonly em: EntityManager, private readonly ids: IdGenerator, private readonly notices: CommitNotices = new CommitNotices()) {}

  async create(write: NewPaymentWrite): Promise<'created' | 'duplicate_reference' | 'insufficient_funds'> {
    // Four statements sent as one simple query: one round trip, one socket write.
    const { statements, hold } = newPaymentStatements(this.em, this.ids, write);
    try {
      const results = await this.em.execute<unknown[][]>(statements.join(';\n'));
      this.notices.addEvent(write.event);
      if ((results[results.length - 1] ?? []).length >= 2) return 'created';
      // The hold's slot did not cover it: gather from the other slots, or refuse exactly (docs/decisions.md § Ledger).
      const gathered = await new LedgerTxStore(this.em, this.ids).gatherAndHold(write.hold, hold.holdSlot, hold.transactionId);
      return gathered === 'posted' ? 'created' : 'insufficient_funds';
    } catch (e) {
      if (e instanceof UniqueConstraintViolationException && e.message.includes('payments_tenant_reference_unique')) return 'duplicate_reference';
      throw e;
    }
  }

  async update(paymentId: string, expectedStatus: PaymentStatus, patch: PaymentPatch): Promise<Payment | undefined> {
    return (await this.updateMany([{ paymentId, from: expectedStatus, patch }]))[0];
  }

  async move(write: PaymentMoveWrite): Promise<Payment | 'moved_concurrently' | 'ledger_refused'> {
    try {
      return (await this.moveMany([write]))[0]!;
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) return 'ledger_refused';
      throw error;
    }
  }

  /**
   * Applies many moves in one statement (paymentMovesStatement), at most one per payment: for each
   * write, in order, the payment as written or `moved_concurrently`. Throws when the statement
   * fails, e.g. on a transfer the ledger already holds: the caller's transaction is then lost.
   */
  async moveMany(writes: readonly PaymentMoveWrite[]): Promise<(Payment | 'moved_concurrently')[]> {
    const rows = await this.em.execute<Record<string, unknown>[]>(...paymentMovesStatement(this.ids, writes));
    const read = rowReader(this.em, PaymentSchema);
    return this.inOrder(writes, rows).map((row, i) => {
      if (!row) return 'moved_concurrently';
      if (Number(row.ledger_rows) < 2) throw new Error(`ledger accounts missing for tenant ${writes[i]!.transfer.tenantId} ${writes[i]!.transfer.currency}`);
      this.notices.addEvent(writes[i]!.event);
      return read(row);
    });
  }

  /** Applies many status-guarded patches in one statement, at most one per payment: for each, in order, the payment as written or undefined (guard missed). */
  async updateMany(patches: readonly GuardedPatch[]): Promise<(Payment | undefined)[]> {
    const rows = await this.em.execute<Record<string, unknown>[]>(...paymentPatchesStatement(patches));
    const read = rowReader(this.em, PaymentSchema);
    return this.inOrder(patches, rows).map((row) => (row ? read(row) : undefined));
  }

  /** The returned row of each input's payment, in the inputs' order; undefined where its guard missed. */
  private inOrder(inputs: readonly { paymentId: string }[], rows: Record<string, unknown>[]): (Record<string, unknown> | undefined)[] {
    const byId = new Map(rows.map((row) => [String(row.id), row]));
    return inputs.map((input) => byId.get(input.paymentId));
  }
}

/** The payout work queue (PaymentQueue port): one statement claims and leases due payments. */
export class PaymentQueueRepository implements PaymentQueue {
  constructor(private readonly em: EntityManager) {}

  /** See PaymentQueue.claimDue; only payments in a status the state table can still move (MOVABLE_STATUSES) are claimed. */
  async claimDue(now: Date, limit: number, leaseUntil: Date): Promise<Payment[]> {
    const rows = await this.em.getConnection().execute<Record<string, unknown>[]>(
      `update payments set next_action_at = ?, attempts = attempts + 1
        where id in (select id from payments
                      where next_action_at <= ? and status in (${MOVABLE_STATUSES.map(() => '?').join(', ')})
                      order by next_action_at limit ? for update skip locked)
        returning *`,
      [leaseUntil, now, ...MOVABLE_STATUSES, limit],
    );
    return rows.map(rowReader(this.em, PaymentSchema));
  }
}
