import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock, IdGenerator } from '../../core/shared/clock';
import { LedgerTxStore } from './ledger.repository';
import { CustomerTxRepository } from './customer.repository';
import { DepositTxStore } from './deposit.store';
import type { Result } from '../../core/shared/result';
import type { TransactionContext, UnitOfWork } from '../../core/shared/unit-of-work';
import { IdempotencyTxStore } from './idempotency.store';
import { OutboxTxWriter } from './outbox.writer';
import { PaymentTxRepository } from './payment.repository';
import { QuoteMikroRepository } from './quote.repository';
import { OnchainRefundTxStore } from './onchain-refund.repository';
import { ComplianceReviewTxRepository } from './compliance-review.repository';

class Rollback extends Error {}

/** UnitOfWork port on MikroORM: one forked manager and one PostgreSQL transaction per call; `clock` judges idempotency records' expiry. */
export class MikroUnitOfWork implements UnitOfWork {
  constructor(private readonly em: EntityManager, private readonly ids: IdGenerator, private readonly clock: Clock) {}

  async transact<T, C extends string>(work: (tx: TransactionContext) => Promise<Result<T, C>>): Promise<Result<T, C>> {
    let result: Result<T, C> | undefined;
    try {
      await this.em.fork().transactional(async (tem) => {
        result = await work(contextFor(tem, this.ids, this.clock));
        // An error result must undo whatever the work wrote before it decided to fail.
        if (!result.ok) throw new Rollback();
      });
    } catch (e) {
      if (!(e instanceof Rollback)) throw e;
    }
    return result as Result<T, C>;
  }
}

/** The repositories of one transaction's manager (the unit of work's and the batching one's). */
export function contextFor(em: EntityManager, ids: IdGenerator, clock: Clock): TransactionContext {
  return {
    payments: new PaymentTxRepository(em, ids),
    idempotency: new IdempotencyTxStore(em, clock),
    quotes: new QuoteMikroRepository(em),
    outbox: new OutboxTxWriter(em),
    ledger: new LedgerTxStore(em, ids),
    customers: new CustomerTxRepository(em),
    deposits: new DepositTxStore(em),
    refunds: new OnchainRefundTxStore(em),
    reviews: new ComplianceReviewTxRepository(em),
  };
}
