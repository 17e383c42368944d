import type { Blockchain } from '../../src/core/catalog/catalog';
import type { WalletShortfall, WalletShortfallFindings } from '../../src/core/refunds/refund-funds';

/** The wallets' shortfall findings in memory, as the PostgreSQL adapter keeps them: one per (chain, wallet). */
export class MemoryShortfallFindings implements WalletShortfallFindings {
  readonly standing = new Map<string, WalletShortfall>();
  /** Every write, for tests that check a finding is raised once. */
  writes = 0;

  async raise(finding: WalletShortfall): Promise<'raised' | 'changed' | 'kept'> {
    const key = `${finding.chain}|${finding.wallet}`;
    const before = this.standing.get(key);
    if (before && before.lacks === finding.lacks && before.refundId === finding.refundId) return 'kept';
    this.standing.set(key, finding);
    this.writes += 1;
    return before ? 'changed' : 'raised';
  }

  async clear(chain: Blockchain, wallet: string): Promise<WalletShortfall | undefined> {
    const key = `${chain}|${wallet}`;
    const before = this.standing.get(key);
    if (before) {
      this.standing.delete(key);
      this.writes += 1;
    }
    return before;
  }
}
