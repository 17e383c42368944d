import type { Logger } from 'pino';
import type { Blockchain } from '../../core/catalog/catalog';
import { judgeBalances, type HotWalletBalances, type JudgedBalance, type LowWatermarks } from '../../core/refunds/hot-wallet-balances';

/** Where the monitor shows what it read (RefundMetrics). */
export interface BalanceGauges {
  walletBalances(chain: Blockchain, wallet: string, judged: readonly JudgedBalance[]): void;
  forgetWallet(chain: Blockchain, wallet: string): void;
}

/** What one hot wallet's balance monitor needs. */
export interface RefundBalanceMonitorDeps {
  readonly chain: Blockchain;
  readonly wallet: string;
  /** The sender's `balances()`. */
  readonly read: () => Promise<HotWalletBalances>;
  readonly watermarks: LowWatermarks;
  /** Least time between two reads, ms (REFUND_BALANCE_INTERVAL_MS). */
  readonly everyMs: number;
  /** Now, ms since the epoch. */
  readonly now: () => number;
  readonly gauges: BalanceGauges;
  readonly logger: Logger;
}

/**
 * A hot wallet's balances as metrics with thresholds (docs/operations.md § Refunds: balances and
 * thresholds), run by its refunds worker while it holds the wallet's lease: `maybeRead()` reads
 * the balances at most every `everyMs` (not every pass), sets the gauges, and logs one warn line
 * when a balance goes below its watermark and one info line when it is back at or above it (not a
 * line per read). A failed read is logged and tried again after `everyMs`; it never fails the pass.
 */
export class RefundBalanceMonitor {
  private lastReadAt: number | undefined;
  /** The currencies (gas under its coin's name) that were below their watermarks at the last read. */
  private readonly lowNow = new Set<string>();

  constructor(private readonly deps: RefundBalanceMonitorDeps) {}

  /** Reads and shows the balances when `everyMs` has passed since the last read (or none was made). */
  async maybeRead(): Promise<void> {
    const { chain, wallet, everyMs, now, logger } = this.deps;
    const at = now();
    if (this.lastReadAt !== undefined && at - this.lastReadAt < everyMs) return;
    this.lastReadAt = at;
    let judged: JudgedBalance[];
    try {
      judged = judgeBalances(chain, await this.deps.read(), this.deps.watermarks);
    } catch (error) {
      logger.warn({ err: error, chain, wallet }, 'refund hot wallet balances not read; tried again later');
      return;
    }
    this.deps.gauges.walletBalances(chain, wallet, judged);
    for (const b of judged) {
      const fields = { chain, wallet, currency: b.currency, balance: b.amount, watermark: b.watermark };
      if (b.low && !this.lowNow.has(b.currency)) {
        this.lowNow.add(b.currency);
        logger.warn(fields, `refund hot wallet ${b.kind === 'gas' ? 'gas' : 'token'} balance is below its low watermark: top it up`);
      } else if (!b.low && this.lowNow.delete(b.currency)) {
        logger.info(fields, 'refund hot wallet balance is back at or above its low watermark');
      }
    }
  }

  /** Forgets what it showed (the lease went elsewhere): the gauges' series go, and the next read is at once. */
  forget(): void {
    this.deps.gauges.forgetWallet(this.deps.chain, this.deps.wallet);
    this.lastReadAt = undefined;
    this.lowNow.clear();
  }
}
