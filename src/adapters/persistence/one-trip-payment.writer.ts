import type { EntityManager } from '@mikro-orm/postgresql';
import type { NewPaymentWrite, OneTripPaymentWriter } from '../../core/payments/payment-ports';
import type { IdGenerator } from '../../core/shared/clock';
import { IDEMPOTENCY_LOCK_SQL, LIVE_RECORD_SQL, idempotencyLockKey } from './idempotency.store';
import { newPaymentStatements } from './payment.repository';
import { withPooledConnection, type PgClient } from './prepared-read';
import { CommitNotices, NO_NOTIFIER, type AfterCommitNotifier } from './commit-notices';

/** SQLSTATE raised by `payout_gate` (migration 20261126040000) when a gate is closed. */
const GATE_CLOSED = 'GT001';
const DUPLICATE_REFERENCE = 'payments_tenant_reference_unique';

/**
 * OneTripPaymentWriter on PostgreSQL (docs/decisions.md § Performance: a money-out in one round
 * trip): the whole transaction of a new payment as ONE simple query on a pooled connection:
 *   begin;
 *   gate: the key's advisory lock was free (the same lock IdempotencyTxStore takes);
 *   gate: no live record under the key (its own statement, so its snapshot is taken after the
 *         lock is held and sees what the lock's previous holder committed);
 *   the payment, its event with deliveries, its idempotency record, the hold;
 *   gate: the hold posted (its slot covered the amount);
 *   commit
 * PostgreSQL runs the statements in order and stops at the first error, so a closed gate leaves
 * the transaction open with nothing to commit: it is rolled back on the same connection before the
 * connection goes back to the pool, and the caller hears `undecided`. A duplicate reference is
 * rolled back the same way. Once the script has committed, the event's wake-ups go to `notifier`
 * (no NOTIFY inside the transaction: docs/decisions.md § Performance).
 */
export class PgOneTripPaymentWriter implements OneTripPaymentWriter {
  constructor(private readonly em: EntityManager, private readonly ids: IdGenerator, private readonly notifier: AfterCommitNotifier = NO_NOTIFIER) {}

  async createIfFirst(write: NewPaymentWrite): Promise<'created' | 'duplicate_reference' | 'undecided'> {
    const platform = this.em.getPlatform();
    const { tenantId, key } = write.idempotency;
    const { statements, hold } = newPaymentStatements(this.em, this.ids, write);
    const script = [
      'begin',
      platform.formatQuery(`select payout_gate(${IDEMPOTENCY_LOCK_SQL}, 'idempotency key in flight')`, [idempotencyLockKey(tenantId, key)]),
      platform.formatQuery(`select payout_gate(not exists (select 1 from idempotency_keys where ${LIVE_RECORD_SQL}), 'idempotency key recorded')`,
        [tenantId, key, write.payment.createdAt]),
      ...statements,
      platform.formatQuery("select payout_gate(exists (select 1 from ledger_transactions where id = ?), 'hold not covered by its slot')", [hold.transactionId]),
      'commit',
    ].join(';\n');
    const outcome = await withPooledConnection(this.em, async (connection) => {
      try {
        await connection.query(script);
        return 'created' as const;
      } catch (error) {
        await rollback(connection, error);
        const { code, constraint } = error as { code?: string; constraint?: string };
        if (code === GATE_CLOSED) return 'undecided' as const;
        if (code === '23505' && constraint === DUPLICATE_REFERENCE) return 'duplicate_reference' as const;
        throw error;
      }
    });
    if (outcome === 'created') {
      const notices = new CommitNotices();
      notices.addEvent(write.event);
      this.notifier.notify(notices.values());
    }
    return outcome;
  }
}

/**
 * Ends the failed script's transaction on its own connection. A connection that cannot even roll
 * back is marked disposed, so the pool drops it instead of lending it out mid-transaction.
 */
async function rollback(connection: PgClient, cause: unknown): Promise<void> {
  try {
    await connection.query('rollback');
  } catch {
    (connection as { __knex__disposed?: unknown }).__knex__disposed = cause;
  }
}
