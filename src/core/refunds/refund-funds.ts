import type { Blockchain } from '../catalog/catalog';
import type { Stablecoin } from '../shared/money';
import type { RefundShortfall } from './refund-sender';

/**
 * An operator finding (docs/decisions.md § Refunds: funds and fees): the hot wallet `wallet` on
 * `chain` lacks `lacks` (`token`: its balance of `currency` is below the refund's `amount`, a
 * decimal string at scale 6; `gas`: its BNB or SOL is below one transfer's fee) to send the
 * refund `refundId`, the oldest one owed, so every refund from it waits `pending`. `since` is when
 * it was first seen short of this.
 */
export interface WalletShortfall {
  readonly chain: Blockchain;
  readonly wallet: string;
  readonly lacks: RefundShortfall;
  readonly refundId: string;
  readonly currency: Stablecoin;
  readonly amount: string;
  readonly since: Date;
}

/**
 * Port: the standing shortfall finding of each hot wallet, shared by every replica (PostgreSQL).
 * One finding per wallet at most, so it is raised once while the wallet stays short, not once per pass.
 */
export interface WalletShortfallFindings {
  /**
   * Records `finding` unless the wallet already stands short of the same thing: `raised` when no
   * finding stood, `changed` when it replaced one of another kind or for another refund (its
   * `since` is then the new one's), `kept` when the same one stood (nothing written).
   */
  raise(finding: WalletShortfall): Promise<'raised' | 'changed' | 'kept'>;
  /** Clears the wallet's finding; the one that stood, or undefined when none did. */
  clear(chain: Blockchain, wallet: string): Promise<WalletShortfall | undefined>;
}

/** What changed in a wallet's finding during a pass, for logs and metrics. */
export type ShortfallChange =
  | { readonly change: 'raised' | 'changed'; readonly finding: WalletShortfall }
  | { readonly change: 'cleared'; readonly finding: WalletShortfall };
