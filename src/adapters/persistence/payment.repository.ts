import { UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/postgresql';
import { Payment, type PaymentStatus } from '../../core/payments/payment';
import type { PaymentPatch, PaymentQueue, PaymentReader, PaymentStore } from '../../core/payments/payment-ports';
import { err, ok, type Result } from '../../core/shared/result';
import { PaymentSchema } from './schemas/payment.schema';
import { insertStatement } from './raw-insert';

const PATCHABLE: Record<keyof PaymentPatch, string> = {
  status: 'status',
  providerRef: 'provider_ref',
  failureReason: 'failure_reason',
  nextActionAt: 'next_action_at',
  acceptedAt: 'accepted_at',
  updatedAt: 'updated_at',
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
  constructor(private readonly em: EntityManager) {}

  async insert(payment: Payment): Promise<Result<void, 'duplicate_reference'>> {
    try {
      await this.em.execute(...insertStatement(this.em, PaymentSchema, payment));
      return ok(undefined);
    } catch (e) {
      if (e instanceof UniqueConstraintViolationException && e.message.includes('payments_tenant_reference_unique')) {
        return err('duplicate_reference', `A payment with reference ${payment.reference} already exists`);
      }
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

  async claimDue(now: Date, limit: number, leaseUntil: Date): Promise<Payment[]> {
    const em = this.em.fork();
    const rows = await em.execute<Record<string, unknown>[]>(
      `update payments set next_action_at = ?, attempts = attempts + 1
        where id in (select id from payments
                      where next_action_at <= ? and status in ('initiated', 'provider_accepted')
                      order by next_action_at limit ? for update skip locked)
        returning *`,
      [leaseUntil, now, limit],
    );
    return rows.map((row) => em.map(PaymentSchema, row));
  }
}
