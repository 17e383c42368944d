import { UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/postgresql';
import { Payment, type PaymentStatus } from '../../core/payments/payment';
import { MOVABLE_STATUSES } from '../../core/payments/payment-state';
import type { NewPaymentWrite, PaymentPatch, PaymentQueue, PaymentReader, PaymentStore } from '../../core/payments/payment-ports';
import type { IdGenerator } from '../../core/shared/clock';
import { idempotencySaveStatement } from './idempotency.store';
import { LedgerTxStore, ledgerPostStatement } from './ledger.repository';
import { outboxStatement } from './outbox.writer';
import { PaymentSchema } from './schemas/payment.schema';
import { insertStatement } from './raw-insert';

const PATCHABLE: Record<keyof PaymentPatch, string> = {
  status: 'status',
  providerRef: 'provider_ref',
  failureReason: 'failure_reason',
  nextActionAt: 'next_action_at',
  acceptedAt: 'accepted_at',
  updatedAt: 'updated_at',
  provider: 'provider',
  submittedAt: 'submitted_at',
};

/** Payment reads outside transactions (PaymentReader port), each on a fresh fork. */
export class PaymentReadRepository implements PaymentReader {
  constructor(private readonly em: EntityManager) {}

  async findForTenant(tenantId: string, paymentId: string): Promise<Payment | undefined> {
    return (await this.em.fork().findOne(PaymentSchema, { id: paymentId, tenantId })) ?? undefined;
  }

  async findById(paymentId: string): Promise<Payment | undefined> {
    return (await this.em.fork().findOne(PaymentSchema, { id: paymentId })) ?? undefined;
  }
}

/** Payment writes inside one transaction (PaymentStore port); `em` is the transaction's manager. */
export class PaymentTxRepository implements PaymentStore {
  constructor(private readonly em: EntityManager, private readonly ids: IdGenerator) {}

  async create(write: NewPaymentWrite): Promise<'created' | 'duplicate_reference' | 'insufficient_funds'> {
    // Four statements sent as one simple query: one round trip, one socket write. Each runs
    // after the previous one; the ledger hold, which locks the tenant's balance row, is last.
    const platform = this.em.getPlatform();
    const hold = ledgerPostStatement(write.hold, this.ids);
    const statements = [
      insertStatement(this.em, PaymentSchema, write.payment),
      outboxStatement(this.em, write.event),
      idempotencySaveStatement(this.em, write.idempotency),
      hold.statement,
    ].map(([sql, params]) => platform.formatQuery(sql, params));
    try {
      const results = await this.em.execute<unknown[][]>(statements.join(';\n'));
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
    const entries = Object.entries(patch).filter(([, v]) => v !== undefined) as [keyof PaymentPatch, unknown][];
    const sets = entries.map(([prop]) => `"${PATCHABLE[prop]}" = ?`).join(', ');
    const rows = await this.em.execute<Record<string, unknown>[]>(
      `update payments set ${sets} where id = ? and status = ? returning *`,
      [...entries.map(([, v]) => v), paymentId, expectedStatus],
    );
    return rows[0] ? this.em.map(PaymentSchema, rows[0]) : undefined;
  }
}

/** The payout work queue (PaymentQueue port): one statement claims and leases due payments. */
export class PaymentQueueRepository implements PaymentQueue {
  constructor(private readonly em: EntityManager) {}

  /** See PaymentQueue.claimDue; only payments in a status the state table can still move (MOVABLE_STATUSES) are claimed. */
  async claimDue(now: Date, limit: number, leaseUntil: Date): Promise<Payment[]> {
    const em = this.em.fork();
    const rows = await em.execute<Record<string, unknown>[]>(
      `update payments set next_action_at = ?, attempts = attempts + 1
        where id in (select id from payments
                      where next_action_at <= ? and status in (${MOVABLE_STATUSES.map(() => '?').join(', ')})
                      order by next_action_at limit ? for update skip locked)
        returning *`,
      [leaseUntil, now, ...MOVABLE_STATUSES, limit],
    );
    return rows.map((row) => em.map(PaymentSchema, row));
  }
}
