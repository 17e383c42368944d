/**
 * In-memory fakes of the core's ports (docs/architecture.md), for unit tests of the use cases
 * without PostgreSQL: a unit of work with rollback, a fixed clock, sequential ids, a scripted
 * payout provider and a scripted webhook transport. Our own storage is still tested on real
 * PostgreSQL in test/integration and test/e2e; these stand in only at the core's edge.
 */
import { Decimal } from '../../src/core/shared/money';
import type { Clock, IdGenerator, IdPrefix } from '../../src/core/shared/clock';
import { err, ok, type Result } from '../../src/core/shared/result';
import type { TransactionContext, UnitOfWork } from '../../src/core/shared/unit-of-work';
import type { ComplianceReview, ComplianceReviewTxStore } from '../../src/core/screening/compliance-review';
import { Payment, type PaymentStatus } from '../../src/core/payments/payment';
import type { NewPaymentWrite, OneTripPaymentWriter, PaymentMoveWrite, PaymentPatch, PaymentQueue, PaymentReader, PaymentStore } from '../../src/core/payments/payment-ports';
import { isFinal } from '../../src/core/payments/payment-state';
import type { PayoutProvider, StatusOutcome, SubmitOutcome } from '../../src/core/payments/payout-provider';
import type { IdempotencyLock, IdempotencyRecord, IdempotencyStore } from '../../src/core/idempotency/idempotency';
import type { OutboxEvent, OutboxWriter } from '../../src/core/events/outbox-event';
import { Quote, type QuoteRepository } from '../../src/core/quotes/quote';
import type { AccountKind, LedgerStore, Transfer } from '../../src/core/ledger/ledger';
import type { Deposit, DepositFinding } from '../../src/core/deposits/deposit';
import type { ChainCursor, DepositStore } from '../../src/core/deposits/deposit-ports';
import type { Blockchain } from '../../src/core/catalog/catalog';
import { Customer, type CustomerTxStore, type KycProvider } from '../../src/core/customers/customer';
import type { PayoutRouted, ProviderRouting, Routed, TenantEnvironment, TenantEnvironments } from '../../src/core/routing/provider-routing';
import type { OnchainRefund, RefundAction, RefundStore } from '../../src/core/refunds/onchain-refund';
import type { RefundAttempt } from '../../src/core/refunds/refund-sender';
import type { AttemptRecord, ClaimRequest, DeliveryJob, DeliveryQueue, DeliveryRecord, SendResult, WebhookTransport } from '../../src/core/webhooks/webhook-ports';

/** A clock that moves only when told to. Starts at 2026-01-01T00:00:00Z unless given a start. */
export class FixedClock implements Clock {
  private current: number;

  constructor(start: Date | string = '2026-01-01T00:00:00.000Z') {
    this.current = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  /** Moves the clock forward by `ms` milliseconds. */
  advance(ms: number): void {
    this.current += ms;
  }
}

/**
 * Sequential ids: `next('pay')` is `pay_` + a 26-character zero-padded counter (a ULID's length),
 * `uuid()` a valid v4-shaped uuid ending in the counter, so tests can predict them.
 */
export class SequentialIds implements IdGenerator {
  private counter = 0;

  next(prefix: IdPrefix): string {
    return `${prefix}_${String(++this.counter).padStart(26, '0')}`;
  }

  uuid(): string {
    return `00000000-0000-4000-8000-${String(++this.counter).padStart(12, '0')}`;
  }
}

/** One ledger transaction as the fake ledger keeps it. */
export interface PostedTransfer extends Transfer {
  readonly id: string;
}

type Undo = () => void;

/**
 * The stored state behind every in-memory port, and the unit of work over it. Every write made
 * inside `transact` records how to undo itself; an error result or a throw undoes them in reverse
 * order, as a rollback would. Outside a transaction, writes are immediate.
 */
export class MemoryStore implements UnitOfWork {
  readonly payments = new Map<string, Payment>();
  readonly idempotency = new Map<string, IdempotencyRecord>();
  readonly quotes = new Map<string, Quote>();
  readonly outbox: OutboxEvent[] = [];
  readonly transfers: PostedTransfer[] = [];
  readonly deposits: Deposit[] = [];
  readonly findings: DepositFinding[] = [];
  /** Each chain watcher's stored position. */
  readonly cursors = new Map<Blockchain, ChainCursor>();
  /** Who holds each chain's watcher lease; a chain missing here is held by whoever saves. */
  readonly leases = new Map<Blockchain, string>();
  readonly customers = new Map<string, Customer>();
  readonly refunds = new Map<string, OnchainRefund>();
  /** Operators' actions on refunds, in order (the audit record). */
  readonly refundActions: RefundAction[] = [];
  /** Onchain attempts of refunds by id; unique per (chain, wallet, nonce) and per hash, as PostgreSQL keeps them. */
  readonly refundAttempts = new Map<string, RefundAttempt>();
  /** Balances by `tenant|currency|kind`, decimal. */
  private readonly balances = new Map<string, Decimal>();
  /** Idempotency locks held by open transactions, by `tenant|key`. */
  private readonly locks = new Set<string>();
  /** Transactions committed and rolled back, for tests that check a refusal wrote nothing. */
  commits = 0;
  rollbacks = 0;

  constructor(private readonly clock: Clock, private readonly ids: IdGenerator = new SequentialIds()) {}

  private openAttemptOf(refundId: string): RefundAttempt | undefined {
    return [...this.refundAttempts.values()].find((a) => a.refundId === refundId && (a.status === 'signed' || a.status === 'broadcast'));
  }

  /** Credits `amount` to the tenant's available balance from funding, as a deposit would. */
  fund(tenantId: string, currency: Transfer['currency'], amount: string): void {
    // Its own transaction id, so funding does not shift the ids the use cases draw.
    this.move({
      tenantId, currency, from: 'funding', to: 'available', amount, kind: 'sandbox_funding', at: this.clock.now(),
      transactionId: `ldg_funding_${this.transfers.length + 1}`,
    }, () => undefined);
  }

  /** A balance as a decimal string at scale 6 (zero when never touched). */
  balance(tenantId: string, currency: Transfer['currency'], kind: AccountKind): string {
    return (this.balances.get(`${tenantId}|${currency}|${kind}`) ?? new Decimal(0)).toFixed(6);
  }

  /** Compliance reviews written in transactions, by subject id (docs/decisions.md § Screening). */
  readonly reviews = new Map<string, ComplianceReview>();

  /** Adds a payment as it would be stored (for tests that start from a given state). */
  seedPayment(payment: Payment): void {
    this.payments.set(payment.id, new Payment({ ...payment }));
  }

  async transact<T, C extends string>(work: (tx: TransactionContext) => Promise<Result<T, C>>): Promise<Result<T, C>> {
    const undo: Undo[] = [];
    const held: string[] = [];
    const record = (u: Undo) => undo.push(u);
    try {
      const result = await work(this.context(record, held));
      if (result.ok) this.commits++;
      else this.rollback(undo);
      return result;
    } catch (error) {
      this.rollback(undo);
      throw error;
    } finally {
      for (const key of held) this.locks.delete(key);
    }
  }

  /** How many payments `oneTrip` wrote. */
  oneTripWrites = 0;

  /**
   * OneTripPaymentWriter in memory: `undecided` while the key is locked by an open transaction or
   * holds a live record, or when the hold is refused (the fake ledger has no slots, so that is a
   * refusal only), else the whole write as one transaction.
   */
  readonly oneTrip: OneTripPaymentWriter = {
    createIfFirst: async (write) => {
      const lockKey = `${write.idempotency.tenantId}|${write.idempotency.key}`;
      const stored = this.idempotency.get(lockKey);
      if (this.locks.has(lockKey) || (stored && stored.expiresAt.getTime() > write.payment.createdAt.getTime())) return 'undecided';
      const written = await this.transact(async (tx) => {
        const created = await tx.payments.create(write);
        return created === 'created' ? ok(created) : err(created, created);
      });
      if (written.ok) this.oneTripWrites++;
      return written.ok ? 'created' : written.code === 'duplicate_reference' ? 'duplicate_reference' : 'undecided';
    },
  };

  /** Payment reads outside transactions, tenant-scoped as the port requires. */
  readonly reader: PaymentReader = {
    findForTenant: async (tenantId, paymentId) => {
      const p = this.payments.get(paymentId);
      return p && p.tenantId === tenantId ? new Payment({ ...p }) : undefined;
    },
    findById: async (paymentId) => {
      const p = this.payments.get(paymentId);
      return p ? new Payment({ ...p }) : undefined;
    },
    findViewForTenant: async (tenantId, paymentId) => this.reader.findForTenant(tenantId, paymentId),
  };

  /** The payout work queue: due, non-final payments, oldest due first, leased and counted. */
  readonly queue: PaymentQueue = {
    claimDue: async (now, limit, leaseUntil) => {
      const due = [...this.payments.values()]
        .filter((p) => !isFinal(p.status) && p.nextActionAt !== null && p.nextActionAt.getTime() <= now.getTime())
        .sort((a, b) => a.nextActionAt!.getTime() - b.nextActionAt!.getTime())
        .slice(0, limit);
      return due.map((p) => {
        const leased = new Payment({ ...p, nextActionAt: leaseUntil, attempts: p.attempts + 1 });
        this.payments.set(p.id, leased);
        return new Payment({ ...leased });
      });
    },
  };

  private rollback(undo: Undo[]): void {
    this.rollbacks++;
    for (const u of undo.reverse()) u();
  }

  private context(record: (u: Undo) => void, held: string[]): TransactionContext {
    const payments: PaymentStore = {
      create: async (write) => this.createPayment(write, record),
      update: async (id, expected, patch) => this.updatePayment(id, expected, patch, record),
      move: async (write) => this.movePayment(write, record),
    };
    const idempotency: IdempotencyStore = {
      lock: async (tenantId, key): Promise<IdempotencyLock> => {
        const lockKey = `${tenantId}|${key}`;
        if (this.locks.has(lockKey)) return { kind: 'busy' };
        this.locks.add(lockKey);
        held.push(lockKey);
        const stored = this.idempotency.get(lockKey);
        // Expiry judged by the service clock, as the store's contract says.
        const live = stored && stored.expiresAt.getTime() > this.clock.now().getTime() ? stored : undefined;
        return { kind: 'free', record: live };
      },
    };
    const quotes: QuoteRepository = {
      insert: async (quote) => {
        this.quotes.set(quote.id, new Quote({ ...quote }));
        record(() => this.quotes.delete(quote.id));
      },
      findForTenant: async (tenantId, quoteId) => {
        const q = this.quotes.get(quoteId);
        return q && q.tenantId === tenantId ? new Quote({ ...q }) : undefined;
      },
      consume: async (tenantId, quoteId, paymentId, at) => {
        const q = this.quotes.get(quoteId);
        if (!q || q.tenantId !== tenantId || q.usedAt !== null) return false;
        this.quotes.set(quoteId, new Quote({ ...q, usedAt: at, paymentId }));
        record(() => this.quotes.set(quoteId, q));
        return true;
      },
    };
    const outbox: OutboxWriter = {
      append: async (event) => {
        this.outbox.push(event);
        record(() => this.outbox.splice(this.outbox.indexOf(event), 1));
      },
    };
    const ledger: LedgerStore = {
      post: async (transfer) => {
        const posted = this.post(transfer, record);
        if (posted === 'insufficient_funds') throw new Error('an unchecked transfer cannot be refused for funds');
        return posted;
      },
    };
    const deposits: DepositStore = {
      insert: async (deposit) => {
        const key = (d: Pick<Deposit, 'blockchain' | 'txHash' | 'index'>) => `${d.blockchain}|${d.txHash}|${d.index}`;
        if (this.deposits.some((d) => key(d) === key(deposit))) return 'duplicate';
        this.deposits.push(deposit);
        record(() => this.deposits.splice(this.deposits.indexOf(deposit), 1));
        return 'inserted';
      },
      move: async (id, from, patch, at) => {
        const i = this.deposits.findIndex((d) => d.id === id);
        const current = this.deposits[i];
        if (!current || current.status !== from || (at && (current.height !== at.height || current.blockHash !== at.blockHash))) return undefined;
        const moved: Deposit = { ...current, ...patch };
        this.deposits[i] = moved;
        record(() => { this.deposits[this.deposits.indexOf(moved)] = current; });
        return moved;
      },
      recordFinding: async (finding) => {
        if (this.findings.some((f) => f.blockchain === finding.blockchain && f.txHash === finding.txHash && f.index === finding.index)) return 'duplicate';
        this.findings.push(finding);
        record(() => this.findings.splice(this.findings.indexOf(finding), 1));
        return 'inserted';
      },
      saveCursor: async (cursor, holder) => {
        const leaseHolder = this.leases.get(cursor.chain);
        if (leaseHolder !== undefined && leaseHolder !== holder) return 'lease_lost';
        const before = this.cursors.get(cursor.chain);
        this.cursors.set(cursor.chain, cursor);
        record(() => (before ? this.cursors.set(cursor.chain, before) : this.cursors.delete(cursor.chain)));
        return 'saved';
      },
    };
    const customers: CustomerTxStore = {
      release: async (customerId, at) => {
        const c = this.customers.get(customerId);
        if (!c || c.kycStatus !== 'pending' || c.nextCheckAt !== null) return false;
        this.customers.set(customerId, new Customer({ ...c, nextCheckAt: at }));
        record(() => this.customers.set(customerId, c));
        return true;
      },
      decide: async (customerId, status, reason, at) => {
        const c = this.customers.get(customerId);
        if (!c || c.kycStatus !== 'pending') return undefined;
        const decided = new Customer({ ...c, kycStatus: status, kycReason: reason, nextCheckAt: null, updatedAt: at });
        this.customers.set(customerId, decided);
        record(() => this.customers.set(customerId, c));
        return decided;
      },
    };
    const refunds: RefundStore = {
      create: async (refund) => {
        if ([...this.refunds.values()].some((r) => r.paymentId === refund.paymentId)) throw new Error(`second refund of ${refund.paymentId}`);
        this.refunds.set(refund.id, refund);
        record(() => this.refunds.delete(refund.id));
      },
      lockById: async (refundId) => this.refunds.get(refundId),
      markSent: async (refundId, txHash, at) => {
        const before = this.refunds.get(refundId)!;
        const sent: OnchainRefund = { ...before, status: 'sent', txHash, sentAt: at, failureReason: null };
        this.refunds.set(refundId, sent);
        record(() => this.refunds.set(refundId, before));
        return sent;
      },
      recordAction: async (action) => {
        this.refundActions.push(action);
        record(() => this.refundActions.pop());
      },
      isDepositTransaction: async (blockchain, txHash) => this.deposits.some((d) => d.blockchain === blockchain && d.txHash === txHash),
      amountsSentIn: async (blockchain, txHash, refundAddress, exceptRefundId) => [...this.refunds.values()]
        .filter((r) => r.blockchain === blockchain && r.txHash === txHash && r.id !== exceptRefundId
          && (r.refundAddress === refundAddress || (blockchain === 'BSC' && r.refundAddress.toLowerCase() === refundAddress.toLowerCase())))
        .map((r) => r.amount),
      setStatus: async (refundId, from, to, txHash, sentAt, failureReason = null) => {
        const before = this.refunds.get(refundId);
        if (before?.status !== from) throw new Error(`refund ${refundId} is not ${from}`);
        // As PostgreSQL's check: a reason only on a failed refund.
        if (failureReason !== null && to !== 'failed') throw new Error(`refund ${refundId}: a failure reason on ${to}`);
        const moved: OnchainRefund = { ...before, status: to, txHash, sentAt, failureReason };
        this.refunds.set(refundId, moved);
        record(() => this.refunds.set(refundId, before));
        return moved;
      },
      nextPending: async (blockchain) => [...this.refunds.values()]
        .filter((r) => r.blockchain === blockchain && r.status === 'pending' && !this.openAttemptOf(r.id))
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id))[0],
      openAttempt: async (blockchain, wallet) => [...this.refundAttempts.values()]
        .find((a) => a.blockchain === blockchain && a.wallet === wallet && (a.status === 'signed' || a.status === 'broadcast')),
      lastNonce: async (blockchain, wallet) => [...this.refundAttempts.values()]
        .filter((a) => a.blockchain === blockchain && a.wallet === wallet && a.nonce !== null)
        .reduce<bigint | null>((max, a) => (max === null || a.nonce! > max ? a.nonce : max), null),
      createAttempt: async (attempt) => {
        for (const a of this.refundAttempts.values()) {
          const sameNonce = a.nonce !== null && a.blockchain === attempt.blockchain && a.wallet === attempt.wallet && a.nonce === attempt.nonce;
          if (sameNonce || a.txHashes.some((h) => attempt.txHashes.includes(h))) throw new Error(`duplicate refund attempt ${attempt.id}`);
        }
        this.refundAttempts.set(attempt.id, attempt);
        record(() => this.refundAttempts.delete(attempt.id));
      },
      updateAttempt: async (attempt) => {
        const before = this.refundAttempts.get(attempt.id);
        if (!before) throw new Error(`refund attempt ${attempt.id} is gone`);
        this.refundAttempts.set(attempt.id, attempt);
        record(() => this.refundAttempts.set(attempt.id, before));
      },
    };
    const reviews: ComplianceReviewTxStore = {
      create: async (review) => {
        this.reviews.set(review.subjectId, review);
        record(() => this.reviews.delete(review.subjectId));
      },
      decide: async (paymentId, from, to, decidedBy, reason, at) => {
        const before = this.reviews.get(paymentId);
        if (before?.status !== from) return undefined;
        const after = { ...before, status: to, decidedBy, reason, decidedAt: at };
        this.reviews.set(paymentId, after);
        record(() => this.reviews.set(paymentId, before));
        return after;
      },
    };
    return { payments, idempotency, quotes, outbox, ledger, deposits, customers, refunds, reviews };
  }

  private createPayment(write: NewPaymentWrite, record: (u: Undo) => void): 'created' | 'duplicate_reference' | 'insufficient_funds' {
    const { payment } = write;
    const clash = payment.reference !== null
      && [...this.payments.values()].some((p) => p.tenantId === payment.tenantId && p.reference === payment.reference);
    if (clash) return 'duplicate_reference';
    this.payments.set(payment.id, new Payment({ ...payment }));
    record(() => this.payments.delete(payment.id));
    this.outbox.push(write.event);
    record(() => this.outbox.splice(this.outbox.indexOf(write.event), 1));
    const idemKey = `${write.idempotency.tenantId}|${write.idempotency.key}`;
    const previous = this.idempotency.get(idemKey);
    this.idempotency.set(idemKey, write.idempotency);
    record(() => (previous ? this.idempotency.set(idemKey, previous) : this.idempotency.delete(idemKey)));
    const held = this.post(write.hold, record);
    return held === 'posted' ? 'created' : 'insufficient_funds';
  }

  private updatePayment(id: string, expected: PaymentStatus, patch: PaymentPatch, record: (u: Undo) => void): Payment | undefined {
    const current = this.payments.get(id);
    if (!current || current.status !== expected) return undefined;
    const updated = new Payment({ ...current, ...patch });
    this.payments.set(id, updated);
    record(() => this.payments.set(id, current));
    return new Payment({ ...updated });
  }

  /** PaymentStore.move: the guarded patch, then its event and transfer, each undone on rollback. */
  private movePayment(write: PaymentMoveWrite, record: (u: Undo) => void): Payment | 'moved_concurrently' | 'ledger_refused' {
    const updated = this.updatePayment(write.paymentId, write.from, write.patch, record);
    if (!updated) return 'moved_concurrently';
    this.outbox.push(write.event);
    record(() => this.outbox.splice(this.outbox.indexOf(write.event), 1));
    return this.post(write.transfer, record) === 'posted' ? updated : 'ledger_refused';
  }

  private post(transfer: Transfer, record: (u: Undo) => void): 'posted' | 'insufficient_funds' | 'duplicate' {
    const duplicate = this.transfers.some((t) => (transfer.paymentId !== undefined && t.paymentId === transfer.paymentId && t.kind === transfer.kind)
      || (transfer.externalRef !== undefined && t.externalRef === transfer.externalRef));
    if (duplicate) return 'duplicate';
    const from = this.balances.get(`${transfer.tenantId}|${transfer.currency}|${transfer.from}`) ?? new Decimal(0);
    // The balance may reach exactly zero: a payment of the whole available balance is covered.
    if (transfer.requireFunds && from.lt(transfer.amount)) return 'insufficient_funds';
    this.move(transfer, record);
    return 'posted';
  }

  private move(transfer: Transfer, record: (u: Undo) => void): void {
    const posted: PostedTransfer = { ...transfer, id: transfer.transactionId ?? this.ids.next('ldg') };
    this.add(`${transfer.tenantId}|${transfer.currency}|${transfer.from}`, new Decimal(transfer.amount).neg(), record);
    this.add(`${transfer.tenantId}|${transfer.currency}|${transfer.to}`, new Decimal(transfer.amount), record);
    this.transfers.push(posted);
    record(() => this.transfers.splice(this.transfers.indexOf(posted), 1));
  }

  private add(key: string, delta: Decimal, record: (u: Undo) => void): void {
    const before = this.balances.get(key) ?? new Decimal(0);
    this.balances.set(key, before.plus(delta));
    record(() => this.balances.set(key, before));
  }
}

/** One scripted answer: an outcome, or an infrastructure fault the provider throws. */
export type Scripted<T> = T | { readonly throws: Error };

/**
 * A payout provider that answers from a script per payment id; with nothing scripted, `submit`
 * accepts (`ref_<paymentId>`) and `status` says succeeded. Records every call in order.
 */
export class ScriptedProvider implements PayoutProvider {
  readonly calls: Array<{ readonly call: 'submit' | 'status'; readonly paymentId: string }> = [];
  private readonly submits = new Map<string, Scripted<SubmitOutcome>[]>();
  private readonly statuses = new Map<string, Scripted<StatusOutcome>[]>();

  constructor(readonly name = 'scripted') {}

  /** Queues answers to the next `submit` calls for `paymentId`. */
  onSubmit(paymentId: string, ...answers: Scripted<SubmitOutcome>[]): this {
    this.submits.set(paymentId, [...(this.submits.get(paymentId) ?? []), ...answers]);
    return this;
  }

  /** Queues answers to the next `status` calls for `paymentId`. */
  onStatus(paymentId: string, ...answers: Scripted<StatusOutcome>[]): this {
    this.statuses.set(paymentId, [...(this.statuses.get(paymentId) ?? []), ...answers]);
    return this;
  }

  async submit(payment: Payment): Promise<SubmitOutcome> {
    this.calls.push({ call: 'submit', paymentId: payment.id });
    return answer(this.submits.get(payment.id)?.shift() ?? { kind: 'accepted', providerRef: `ref_${payment.id}` });
  }

  async status(payment: Payment): Promise<StatusOutcome> {
    this.calls.push({ call: 'status', paymentId: payment.id });
    return answer(this.statuses.get(payment.id)?.shift() ?? { kind: 'succeeded' });
  }
}

function answer<T>(scripted: Scripted<T>): T {
  if (scripted !== null && typeof scripted === 'object' && 'throws' in scripted) throw scripted.throws;
  return scripted as T;
}

/**
 * Routing and tenant environments in one: `provider` serves sandbox tenants, live tenants get
 * `unavailable` (as in the service until real rails exist). Tenants are added with `add`.
 */
export class FakeRouting implements ProviderRouting, TenantEnvironments {
  private readonly tenants = new Map<string, TenantEnvironment>();

  constructor(private readonly provider: PayoutProvider, private readonly kyc?: KycProvider) {}

  add(tenantId: string, environment: TenantEnvironment = 'sandbox'): this {
    this.tenants.set(tenantId, environment);
    return this;
  }

  async environmentOf(tenantId: string): Promise<TenantEnvironment | undefined> {
    return this.tenants.get(tenantId);
  }

  payoutProvidersFor(environment: TenantEnvironment): PayoutRouted {
    return environment === 'sandbox' ? { kind: 'providers', providers: [this.provider] } : { kind: 'not_served', reason: 'no live rails' };
  }

  payoutProviderNamed(environment: TenantEnvironment, name: string): PayoutProvider | undefined {
    return environment === 'sandbox' && name === this.provider.name ? this.provider : undefined;
  }

  kycProviderFor(environment: TenantEnvironment): Routed<KycProvider> {
    return environment === 'sandbox' && this.kyc ? { kind: 'provider', provider: this.kyc } : { kind: 'unavailable', reason: 'no live rails' };
  }
}

/** One send the fake transport saw. */
export interface SentWebhook {
  readonly job: DeliveryJob;
  readonly body: string;
  readonly at: Date;
}

/**
 * A webhook transport that answers from a script per URL (default: 200), records every send,
 * and can hold answers back until released, to test what happens while a send is in flight.
 */
export class FakeTransport implements WebhookTransport {
  readonly sent: SentWebhook[] = [];
  private readonly scripts = new Map<string, SendResult[]>();
  private holding = false;
  private readonly held: Array<() => void> = [];

  /** Queues answers to the next sends to `url`. */
  answer(url: string, ...results: SendResult[]): this {
    this.scripts.set(url, [...(this.scripts.get(url) ?? []), ...results]);
    return this;
  }

  /** From now on, sends wait until `release()`. */
  hold(): void {
    this.holding = true;
  }

  /** Lets every held send answer, and stops holding. */
  release(): void {
    this.holding = false;
    for (const go of this.held.splice(0)) go();
  }

  async send(job: DeliveryJob, body: string, now: Date): Promise<SendResult> {
    this.sent.push({ job, body, at: now });
    if (this.holding) await new Promise<void>((resolve) => this.held.push(resolve));
    return this.scripts.get(job.url)?.shift() ?? { statusCode: 200 };
  }
}

/** One attempt result the fake delivery queue was given (by `recordAll`). */
export interface RecordedAttempt extends DeliveryRecord {
  readonly id: string;
  readonly attempt: number;
}

/**
 * A delivery queue holding pending jobs: `claimDue` hands out due jobs up to the request's limit
 * and each registration's room (`room`, else `perRegistration`), and records every claim request,
 * every `recordAll` batch and `disableRegistration` call for assertions. The SQL claim's ordering rule is tested
 * against PostgreSQL in test/e2e.
 */
export class FakeDeliveryQueue implements DeliveryQueue {
  readonly claims: ClaimRequest[] = [];
  readonly records: RecordedAttempt[] = [];
  readonly disabled: string[] = [];
  private pending: DeliveryJob[] = [];

  add(...jobs: DeliveryJob[]): this {
    this.pending.push(...jobs);
    return this;
  }

  async claimDue(request: ClaimRequest): Promise<DeliveryJob[]> {
    this.claims.push({ ...request, room: new Map(request.room) });
    const taken: DeliveryJob[] = [];
    const left = new Map(request.room);
    for (const job of this.pending) {
      if (taken.length >= request.limit) break;
      const room = left.get(job.registrationId) ?? request.perRegistration;
      if (room <= 0) continue;
      left.set(job.registrationId, room - 1);
      taken.push(job);
    }
    this.pending = this.pending.filter((job) => !taken.includes(job));
    return taken;
  }

  /** Batches written, each as the ids it carried. */
  readonly writes: string[][] = [];

  async recordAll(records: readonly AttemptRecord[]): Promise<void> {
    this.writes.push(records.map((r) => r.id));
    this.records.push(...records);
  }

  async disableRegistration(registrationId: string): Promise<void> {
    this.disabled.push(registrationId);
  }
}
