import type { Logger } from 'pino';
import type { Blockchain } from '../../core/catalog/catalog';
import type { ChainReader } from '../../core/deposits/chain-ports';
import type { ScanChainErrorCode, ScanReport } from '../../core/deposits/scan-chain';
import type { Result } from '../../core/shared/result';
import { PollingWorker } from './polling-worker';

/** The chain lease as the watcher uses it (ChainWatchRepository on PostgreSQL). */
export interface ChainLease {
  /** Takes or renews the lease for `leaseMs`; true while `holder` holds it. */
  acquire(chain: Blockchain, holder: string, leaseMs: number): Promise<boolean>;
  /** Gives it up if `holder` holds it. */
  release(chain: Blockchain, holder: string): Promise<void>;
}

/** What one chain's watcher needs. */
export interface ChainWatcherDeps {
  readonly reader: ChainReader;
  readonly lease: ChainLease;
  /** This replica's holder id, the same for every chain it watches. */
  readonly holder: string;
  readonly leaseMs: number;
  /** Wait between passes once caught up (CHAIN_WATCH_INTERVAL_MS). */
  readonly intervalMs: number;
  /** One pass: scanChain bound to its ports. */
  readonly pass: (reader: ChainReader) => Promise<Result<ScanReport, ScanChainErrorCode>>;
  /** Each finished pass, for metrics and logs. */
  readonly onReport?: (report: ScanReport) => void;
  readonly logger: Logger;
}

/**
 * One chain's watcher loop (docs/decisions.md § Onchain deposits: watchers), on any replica: each
 * pass first takes or renews the chain's lease in PostgreSQL, and only the holder scans, so one
 * watcher per chain is active at a time; another replica takes over when the holder stops (it
 * gives the lease up) or dies (the lease runs out). A pass that did not reach the head is followed
 * by the next one at once (catching up); otherwise the loop waits the interval. Nothing else wakes
 * it. A failing pass (every RPC endpoint down) is logged and tried again after the interval, from
 * the stored cursor.
 */
export class ChainWatcher {
  readonly worker: PollingWorker;
  private holding = false;

  constructor(private readonly deps: ChainWatcherDeps) {
    this.worker = new PollingWorker(`chain-${deps.reader.chain.toLowerCase()}`, () => this.pass(), {
      pollIntervalMs: deps.intervalMs, batchSize: 1,
    }, deps.logger);
  }

  get chain(): Blockchain {
    return this.deps.reader.chain;
  }

  /** Whether this replica held the lease at its last pass. */
  get isHolding(): boolean {
    return this.holding;
  }

  start(): void {
    this.worker.start();
  }

  /** Ends the loop after its current pass and gives the lease up, so another replica watches at once. */
  async stop(): Promise<void> {
    await this.worker.stop();
    if (!this.holding) return;
    this.holding = false;
    await this.deps.lease.release(this.chain, this.deps.holder).catch((error: unknown) => {
      this.deps.logger.warn({ err: error, chain: this.chain }, 'chain watcher lease not released; it runs out by itself');
    });
  }

  /** One loop turn: 1 when another pass should follow at once (not caught up), else 0. */
  private async pass(): Promise<number> {
    const { reader, lease, holder, leaseMs, logger } = this.deps;
    const held = await lease.acquire(reader.chain, holder, leaseMs);
    if (held !== this.holding) logger.info({ chain: reader.chain, holder }, held ? 'chain watcher took the lease: watching' : 'chain watcher lease held elsewhere: standing by');
    this.holding = held;
    if (!held) return 0;
    const result = await this.deps.pass(reader);
    if (!result.ok) {
      this.holding = false;
      logger.warn({ chain: reader.chain, holder }, result.message);
      return 0;
    }
    this.deps.onReport?.(result.value);
    return result.value.caughtUp ? 0 : 1;
  }
}
