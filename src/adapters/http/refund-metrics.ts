import { Counter, Gauge, type Registry } from 'prom-client';
import type { Blockchain } from '../../core/catalog/catalog';
import type { WalletShortfall } from '../../core/refunds/refund-funds';
import type { RefundPassOutcome } from '../../core/refunds/send-refund';

/**
 * Onchain refund metrics (docs/operations.md § Refunds), on the service's registry: the refunds
 * workers' passes per chain and outcome (counted by the replica that ran them: sum over replicas),
 * and each hot wallet's standing shortfall, read from PostgreSQL on each scrape so every replica
 * reports it whichever holds the wallet's lease (1 per wallet short, labelled with what it lacks).
 */
export class RefundMetrics {
  private readonly passes: Counter;

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
  }

  /** Counts one refunds pass on `chain` (`error`: it threw). */
  passed(chain: Blockchain, outcome: RefundPassOutcome | 'error'): void {
    this.passes.inc({ chain, outcome });
  }
}
