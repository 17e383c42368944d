import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock, IdGenerator } from '../../core/shared/clock';
import { LedgerTxStore } from './ledger.repository';
import { CustomerTxRepository } from './customer.repository';
import { DepositTxStore } from './deposit.store';
import type { Result } from '../../core/shared/result';
import type { TransactionContext, UnitOfWork } from '../../core/shared/unit-of-work';
import { IdempotencyTxStore } from './idempotency.store';
import { OutboxTxWriter } from './outbox.writer';
import { CommitNotices, NO_NOTIFIER, type AfterCommitNotifier } from './commit-notices';
import { PaymentTxRepository } from './payment.repository';
import { QuoteMikroRepository } from './quote.repository';
import { OnchainRefundTxStore } from './onchain-refund.repository';
import { ComplianceReviewTxRepository } from './compliance-review.repository';

class Rollback extends Error {}

/**
 * UnitOfWork port on MikroORM: one forked manager and one PostgreSQL transaction per call; `clock`
 * judges idempotency records' expiry. The wake-ups its writes collect go to `notifier` after the
 * commit, never from inside the transaction (docs/decisions.md § Performance).
 */
export class MikroUnitOfWork implements UnitOfWork {
  constructor(
    private readonly em: EntityManager, private readonly ids: IdGenerator, private readonly clock: Clock,
    private readonly notifier: AfterCommitNotifier = NO_NOTIFIER,
  ) {}

  async transact<T, C extends string>(work: (tx: TransactionContext) => Promise<Result<T, C>>): Promise<Result<T, C>> {
    let result: Result<T, C> | undefined;
    const notices = new CommitNotices();
    try {
      await this.em.fork().transactional(async (tem) => {
        result = await work(contextFor(tem, this.ids, this.clock, notices));
        // An error result must undo whatever the work wrote before it decided to fail.
        if (!result.ok) throw new Rollback();
      });
    } catch (e) {
      if (!(e instanceof Rollback)) throw e;
      return result as Result<T, C>;
    }
    this.notifier.notify(notices.values());
    return result as Result<T, C>;
  }
}

/**
 * The repositories of one transaction's manager (the unit of work's and the batching one's); the
 * events they write collect their wake-ups in `notices`, for the caller to send after the commit.
 */
export function contextFor(em: EntityManager, ids: IdGenerator, clock: Clock, notices: CommitNotices): TransactionContext {
  return {
    payments: new PaymentTxRepository(em, ids, notices),
    idempotency: new IdempotencyTxStore(em, clock),
    quotes: new QuoteMikroRepository(em),
    outbox: new OutboxTxWriter(em, notices),
    ledger: new LedgerTxStore(em, ids),
    customers: new CustomerTxRepository(em),
    deposits: new DepositTxStore(em),
    refunds: new OnchainRefundTxStore(em),
    reviews: new ComplianceReviewTxRepository(em),
  };
}
