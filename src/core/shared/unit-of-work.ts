import type { Result } from './result';
import type { OutboxWriter } from '../events/outbox-event';
import type { IdempotencyStore } from '../idempotency/idempotency';
import type { PaymentStore } from '../payments/payment-ports';
import type { QuoteRepository } from '../quotes/quote';
import type { LedgerStore } from '../ledger/ledger';
import type { DepositStore } from '../deposits/deposit-ports';
import type { CustomerTxStore } from '../customers/customer';
import type { RefundStore } from '../refunds/onchain-refund';
import type { ComplianceReviewTxStore } from '../screening/compliance-review';

/** Repositories bound to one database transaction. */
export interface TransactionContext {
  readonly payments: PaymentStore;
  readonly idempotency: IdempotencyStore;
  readonly quotes: QuoteRepository;
  readonly outbox: OutboxWriter;
  /** Post ledger transfers last in a transaction: they lock the tenant's balance rows until commit. */
  readonly ledger: LedgerStore;
  /** The register that makes an onchain deposit creditable once, and the chain watchers' cursors (docs/decisions.md § Onchain deposits). */
  readonly deposits: DepositStore;
  readonly customers: CustomerTxStore;
  /** Onchain refunds of live payments (docs/decisions.md § Ledger). */
  readonly refunds: RefundStore;
  /** Compliance reviews of payments held by sanctions screening (docs/decisions.md § Screening). */
  readonly reviews: ComplianceReviewTxStore;
}

/**
 * Port: runs `work` in one database transaction (docs/decisions.md § Payments: states and events: a state change, its ledger entries
 * and its outbox rows commit together). Commits when `work` returns an `ok` result; rolls back
 * when it returns an error result or throws (the exception propagates).
 */
export interface UnitOfWork {
  transact<T, C extends string>(work: (tx: TransactionContext) => Promise<Result<T, C>>): Promise<Result<T, C>>;
}
