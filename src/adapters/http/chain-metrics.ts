import { Counter, Gauge, type Registry } from 'prom-client';
import type { Blockchain } from '../../core/catalog/catalog';
import type { ScanReport } from '../../core/deposits/scan-chain';

/** One chain's watcher as stored (read on each scrape, from any replica). */
export interface ChainWatchGauges {
  readonly chain: Blockchain;
  readonly head: bigint;
  readonly finalized: bigint;
  readonly lagBlocks: number;
  /** Seconds since a pass last reached the head; null before any did. */
  readonly lagSeconds: number | null;
}

/**
 * Onchain deposit metrics (docs/decisions.md § Onchain deposits: watchers), on the service's
 * registry: head and finalized height and the watcher's lag per chain, read from PostgreSQL on
 * each scrape so every replica reports them whichever holds the lease; deposits detected,
 * credited, dropped and findings counted by the process whose watcher saw them (sum over
 * replicas); RPC errors per chain and endpoint, counted by the chain adapters.
 */
export class ChainMetrics {
  private readonly detected: Counter;
  private readonly credited: Counter;
  private readonly dropped: Counter;
  private readonly findings: Counter;
  private readonly rpcErrors: Counter;

  constructor(registry: Registry, watches: () => Promise<ChainWatchGauges[]>) {
    const counter = (name: string, help: string, labelNames: string[]) => new Counter({ name, help, labelNames, registers: [registry] });
    this.detected = counter('deposits_detected_total', 'Onchain deposits detected (not yet final) by chain and stablecoin', ['chain', 'currency']);
    this.credited = counter('deposits_credited_total', 'Onchain deposits credited at finality by chain and stablecoin', ['chain', 'currency']);
    this.dropped = counter('deposits_dropped_total', 'Detected deposits dropped by a reorganisation before finality, by chain and stablecoin', ['chain', 'currency']);
    this.findings = counter('deposit_findings_total', 'Transfers to deposit addresses never credited (foreign_token, dust, oversized), by chain and kind', ['chain', 'kind']);
    this.rpcErrors = counter('chain_rpc_errors_total', 'Failed calls to a chain RPC endpoint, by chain and endpoint name', ['chain', 'endpoint']);
    const gauge = (name: string, help: string, value: (w: ChainWatchGauges) => number | null) => new Gauge({
      name, help, labelNames: ['chain'], registers: [registry],
      async collect() {
        this.reset();
        for (const w of await watches()) {
          const v = value(w);
          if (v !== null) this.set({ chain: w.chain }, v);
        }
      },
    });
    gauge('chain_head_height', 'Newest block (BSC) or slot (Solana) the chain watcher read', (w) => Number(w.head));
    gauge('chain_finalized_height', 'Newest finalized block or slot the chain watcher read', (w) => Number(w.finalized));
    gauge('chain_watcher_lag_blocks', 'Blocks or slots between the head and what the watcher has scanned', (w) => w.lagBlocks);
    gauge('chain_watcher_lag_seconds', 'Seconds since the watcher last reached the head (grows while it lags or no replica watches)', (w) => w.lagSeconds);
  }

  /** Counts what one watcher pass did. */
  passed(report: ScanReport): void {
    for (const d of report.detected) this.detected.inc({ chain: report.chain, currency: d.currency });
    for (const d of report.credited) this.credited.inc({ chain: report.chain, currency: d.currency });
    for (const d of report.dropped) this.dropped.inc({ chain: report.chain, currency: d.currency });
    for (const f of report.findings) this.findings.inc({ chain: report.chain, kind: f.kind });
  }

  /** Counts one failed RPC call of a chain adapter to `endpoint` (a name, never a URL that may carry a key). */
  rpcError(chain: Blockchain, endpoint: string): void {
    this.rpcErrors.inc({ chain, endpoint });
  }
}
