import type { Logger } from 'pino';
import type { Blockchain } from '../../core/catalog/catalog';
import { madeProgress, type RefundPassOutcome } from '../../core/refunds/send-refund';
import { PollingWorker } from './polling-worker';
import type { RefundBalanceMonitor } from './refund-balance-monitor';

/** A hot wallet's lease as the refunds worker uses it (RefundSenderRepository on PostgreSQL). */
export interface RefundLease {
  /** Takes or renews the lease of (`chain`, `wallet`) for `leaseMs` ms; true while `holder` holds it. */
  acquire(chain: Blockchain, wallet: string, holder: string, leaseMs: number): Promise<boolean>;
  /** Gives it up if `holder` holds it. */
  release(chain: Blockchain, wallet: string, holder: string): Promise<void>;
}

/** What one hot wallet's refunds worker needs. */
export interface RefundWorkerDeps {
  /** The wallet it sends from: its chain and address (public, safe to log). */
  readonly chain: Blockchain;
  readonly wallet: string;
  readonly lease: RefundLease;
  /** This replica's holder id (the chain watchers' one). */
  readonly holder: string;
  /** Lease length in ms (REFUND_LEASE_MS), at least twice the interval. */
  readonly leaseMs: number;
  /** Wait in ms between passes when one made no progress (REFUND_INTERVAL_MS). */
  readonly intervalMs: number;
  /** One pass: sendRefundsPass bound to the wallet's sender and ports. */
  readonly pass: () => Promise<RefundPassOutcome>;
  /** The wallet's balances as metrics, read while this replica holds the lease (at most every REFUND_BALANCE_INTERVAL_MS). */
  readonly balances?: Pick<RefundBalanceMonitor, 'maybeRead' | 'forget'>;
  /** Each pass's outcome (`error`: it threw), for metrics. */
  readonly onOutcome?: (outcome: RefundPassOutcome | 'error') => void;
  readonly logger: Logger;
}

/**
 * One hot wallet's refunds loop (docs/decisions.md § Refunds; docs/operations.md § Refunds), on
 * any replica: each pass first takes or renews the wallet's lease in PostgreSQL, and only the
 * holder runs `sendRefundsPass`, so one sender per wallet is active at a time. A pass that made
 * progress (sent, confirmed, failed, dropped, replaced) is followed by the next one at once;
 * otherwise (idle, waiting for finality, short of funds) the loop waits the interval. A failing
 * pass (an RPC down) is logged by the loop and tried again after the interval, from what is
 * stored. While it holds the lease it also reads the wallet's balances for the metrics, at most
 * every REFUND_BALANCE_INTERVAL_MS (`balances`). `stop()` ends the loop after its current pass
 * and gives the lease up, so another replica takes over at once; a dead replica's lease runs out.
 */
export class RefundWorker {
  readonly worker: PollingWorker;
  private holding = false;
  private lastOutcome: RefundPassOutcome | undefined;

  constructor(private readonly deps: RefundWorkerDeps) {
    this.worker = new PollingWorker(`refunds-${deps.chain.toLowerCase()}-${deps.wallet}`, () => this.pass(), {
      pollIntervalMs: deps.intervalMs, batchSize: 1,
    }, deps.logger);
  }

  /** Whether this replica held the wallet's lease at its last pass. */
  get isHolding(): boolean {
    return this.holding;
  }

  start(): void {
    this.worker.start();
  }

  /** Ends the loop after its current pass and gives the lease up. */
  async stop(): Promise<void> {
    await this.worker.stop();
    if (!this.holding) return;
    this.holding = false;
    this.deps.balances?.forget();
    const { chain, wallet, holder, logger } = this.deps;
    await this.deps.lease.release(chain, wallet, holder).catch((error: unknown) => {
      logger.warn({ err: error, chain, wallet }, 'refunds worker lease not released; it runs out by itself');
    });
  }

  /** One loop turn: 1 when another pass should follow at once, else 0. */
  private async pass(): Promise<number> {
    const { chain, wallet, holder, lease, leaseMs, logger } = this.deps;
    const held = await lease.acquire(chain, wallet, holder, leaseMs);
    if (held !== this.holding) logger.info({ chain, wallet, holder }, held ? 'refunds worker took the lease: sending' : 'refunds worker lease held elsewhere: standing by');
    if (!held && this.holding) this.deps.balances?.forget();
    this.holding = held;
    if (!held) return 0;
    await this.deps.balances?.maybeRead();
    let outcome: RefundPassOutcome;
    try {
      outcome = await this.deps.pass();
    } catch (error) {
      this.deps.onOutcome?.('error');
      throw error;
    }
    this.deps.onOutcome?.(outcome);
    // Waiting and idle repeat every interval: only a change is worth a line.
    if (outcome !== this.lastOutcome || madeProgress(outcome)) logger.info({ chain, wallet, outcome }, 'refunds pass');
    this.lastOutcome = outcome;
    return madeProgress(outcome) ? 1 : 0;
  }
}
