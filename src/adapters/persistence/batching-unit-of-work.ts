import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock, IdGenerator } from '../../core/shared/clock';
import type { Result } from '../../core/shared/result';
import type { TransactionContext, UnitOfWork } from '../../core/shared/unit-of-work';
import { contextFor } from './unit-of-work';
import { CoalescingPaymentStore } from './coalescing-payment.store';
import { PaymentTxRepository } from './payment.repository';
import { CommitNotices, NO_NOTIFIER, type AfterCommitNotifier } from './commit-notices';

type Work = (tx: TransactionContext) => Promise<Result<unknown, string>>;

interface Pending {
  readonly work: Work;
  readonly resolve: (result: Result<unknown, string>) => void;
  readonly reject: (error: unknown) => void;
}

class Refused extends Error {}

/** Longest a batch waits for a row lock before it gives up and its units run alone. */
const LOCK_TIMEOUT_MS = 100;

/**
 * UnitOfWork for the payout worker (docs/decisions.md § Performance): the units of work asked for
 * while one batch runs are queued and run together, side by side, in ONE PostgreSQL transaction,
 * so a pass's moves and reschedules share a commit instead of paying one each, and their payment
 * writes share statements (CoalescingPaymentStore: one for the batch's moves, one for its patches).
 * Each unit keeps its guarantees: its caller hears its result only after that commit; when any
 * unit of a batch returns an error result or throws, or the commit fails, the whole batch rolls
 * back and every unit runs again alone through `single` (each with its own transaction, as
 * without batching), so a refusal never undoes or blocks another unit's write. Units are plain
 * database work (the worker's guarded moves and reschedules), safe to run again after a rollback.
 * Up to `maxLanes` batches run at once; a batch that waits more than LOCK_TIMEOUT_MS for a row lock
 * (another batch holding a balance slot it needs, possibly while waiting for one of its own) gives
 * up and its units run alone, so batches never deadlock for long.
 */
export class BatchingUnitOfWork implements UnitOfWork {
  private queue: Pending[] = [];
  private lanes = 0;

  constructor(
    private readonly em: EntityManager,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly single: UnitOfWork,
    /** Most units in one transaction. */
    private readonly maxBatch = 50,
    /** Most batches running at once, each in its own transaction on its own connection. */
    private readonly maxLanes = 4,
    /** Where a committed batch's wake-ups go (the `single` unit of work sends its own). */
    private readonly notifier: AfterCommitNotifier = NO_NOTIFIER,
  ) {}

  transact<T, C extends string>(work: (tx: TransactionContext) => Promise<Result<T, C>>): Promise<Result<T, C>> {
    return new Promise<Result<T, C>>((resolve, reject) => {
      this.queue.push({ work: work as Work, resolve: resolve as (r: Result<unknown, string>) => void, reject });
      if (this.lanes < this.maxLanes) {
        this.lanes += 1;
        // After the current tick, so the units a pass starts together land in one batch.
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) await this.run(this.queue.splice(0, this.maxBatch));
    } finally {
      this.lanes -= 1;
    }
  }

  private async run(batch: Pending[]): Promise<void> {
    if (batch.length === 1) return this.alone(batch);
    const results: Result<unknown, string>[] = [];
    const notices = new CommitNotices();
    try {
      await this.em.fork().transactional(async (tem) => {
        // Batches running side by side may want each other's balance slots in opposite orders: a
        // short lock wait fails the batch instead (each unit then runs alone) rather than waiting
        // for PostgreSQL's deadlock detection.
        await tem.execute(`set local lock_timeout = '${LOCK_TIMEOUT_MS}ms'`);
        // The units run side by side: the moves and patches they ask for together go as one statement each.
        const tx = { ...contextFor(tem, this.ids, this.clock, notices), payments: new CoalescingPaymentStore(new PaymentTxRepository(tem, this.ids, notices)) };
        const settled = await Promise.allSettled(batch.map((unit) => unit.work(tx)));
        for (const outcome of settled) {
          if (outcome.status === 'rejected' || !outcome.value.ok) throw new Refused();
          results.push(outcome.value);
        }
      });
    } catch {
      // A refusal, a fault or a failed commit: nothing of the batch stayed; each unit runs alone.
      return this.alone(batch);
    }
    this.notifier.notify(notices.values());
    batch.forEach((unit, i) => unit.resolve(results[i]!));
  }

  private async alone(batch: Pending[]): Promise<void> {
    await Promise.all(batch.map((unit) => this.single.transact(unit.work).then(unit.resolve, unit.reject)));
  }
}
