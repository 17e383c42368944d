import { Counter, Gauge, type Registry } from 'prom-client';
import type { Blockchain } from '../../core/catalog/catalog';
import type { JudgedBalance } from '../../core/refunds/hot-wallet-balances';
import type { WalletShortfall } from '../../core/refunds/refund-funds';
import type { RefundPassOutcome } from '../../core/refunds/send-refund';

/**
 * Onchain refund metrics (docs/operations.md § Refunds), on the service's registry: the refunds
 * workers' passes per chain and outcome (counted by the replica that ran them: sum over replicas),
 * and each hot wallet's standing shortfall, read from PostgreSQL on each scrape so every replica
 * reports it whichever holds the wallet's lease (1 per wallet short, labelled with what it lacks).
 * Each hot wallet's balances (gas in BNB or SOL, each token) and whether each is below its low
 * watermark, as last read by the replica holding the wallet's lease (another replica has no series
 * for it: aggregate with max).
 */
export class RefundMetrics {
  private readonly passes: Counter;
  private readonly gasBalance: Gauge;
  private readonly tokenBalance: Gauge;
  private readonly low: Gauge;
  /** The label sets each wallet's balance series were last set with, to remove them when it is forgotten. */
  private readonly shown = new Map<string, JudgedBalance[]>();

  constructor(registry: Registry, findings: () => Promise<WalletShortfall[]>) {
    this.passes = new Counter({
      name: 'refund_passes_total', help: 'Refunds worker passes by chain and outcome (idle, broadcast, waiting, confirmed, failed, dropped, replaced, short, error)',
      labelNames: ['chain', 'outcome'], registers: [registry],
    });
    new Gauge({
      name: 'refund_wallet_short', help: 'Hot wallets that lack their token or gas to send the oldest refund owed (1 each; refunds wait pending)',
      labelNames: ['chain', 'wallet', 'lacks'], registers: [registry],
      async collect() {
        this.reset();
        for (const f of await findings()) this.set({ chain: f.chain, wallet: f.wallet, lacks: f.lacks }, 1);
      },
    });
    this.gasBalance = new Gauge({
      name: 'refund_wallet_gas_balance', help: 'Hot wallet native balance for fees, in BNB or SOL (read every REFUND_BALANCE_INTERVAL_MS by the lease holder)',
      labelNames: ['chain', 'wallet'], registers: [registry],
    });
    this.tokenBalance = new Gauge({
      name: 'refund_wallet_token_balance', help: 'Hot wallet token balance per stablecoin, in whole tokens (read every REFUND_BALANCE_INTERVAL_MS by the lease holder)',
      labelNames: ['chain', 'wallet', 'currency'], registers: [registry],
    });
    this.low = new Gauge({
      name: 'refund_wallet_low', help: 'Hot wallet balance below its low watermark (1) or not (0), per currency (BNB or SOL for gas)',
      labelNames: ['chain', 'wallet', 'currency'], registers: [registry],
    });
  }

  /**
   * Sets `wallet`'s balance series from its last read: `refund_wallet_gas_balance` (BNB or SOL),
   * `refund_wallet_token_balance` per currency, and `refund_wallet_low` per currency (gas under
   * its native coin's name), 1 when below its watermark, else 0. Balances are decimal strings;
   * the gauges are floats (a metric, never money).
   */
  walletBalances(chain: Blockchain, wallet: string, judged: readonly JudgedBalance[]): void {
    this.forgetWallet(chain, wallet);
    for (const b of judged) {
      if (b.kind === 'gas') this.gasBalance.set({ chain, wallet }, Number(b.amount));
      else this.tokenBalance.set({ chain, wallet, currency: b.currency }, Number(b.amount));
      this.low.set({ chain, wallet, currency: b.currency }, b.low ? 1 : 0);
    }
    this.shown.set(`${chain}:${wallet}`, [...judged]);
  }

  /** Removes `wallet`'s balance series (this replica no longer holds its lease, so no longer reads them). */
  forgetWallet(chain: Blockchain, wallet: string): void {
    for (const b of this.shown.get(`${chain}:${wallet}`) ?? []) {
      if (b.kind === 'gas') this.gasBalance.remove({ chain, wallet });
      else this.tokenBalance.remove({ chain, wallet, currency: b.currency });
      this.low.remove({ chain, wallet, currency: b.currency });
    }
    this.shown.delete(`${chain}:${wallet}`);
  }

  /** Counts one refunds pass on `chain` (`error`: it threw). */
  passed(chain: Blockchain, outcome: RefundPassOutcome | 'error'): void {
    this.passes.inc({ chain, outcome });
  }
}
