import type { Blockchain } from '../../core/catalog/catalog';
import { addressKeyOf, type OwnDepositAddresses } from '../../core/payments/refund-address';

/** How long "not one of ours" is trusted: an address assigned meanwhile is refused within this long on every replica. */
const NOT_OURS_TTL_MS = 60_000;
/** Most addresses remembered; past it the oldest are forgotten (and read again when asked). */
const MAX_ENTRIES = 10_000;

/**
 * One replica's cache of the OwnDepositAddresses answers asked at money-out (docs/decisions.md §
 * Refunds: refund addresses), so an issuer that keeps sending the same refund address costs no
 * round trip (docs/decisions.md § Performance: a money-out in one round trip). A deposit address
 * is never reassigned nor deleted, so "ours" is kept; "not ours" is kept for 60 s, since an address
 * may be assigned later. Bounded to 10,000 addresses, oldest first out.
 */
export class CachedOwnAddresses implements OwnDepositAddresses {
  private readonly entries = new Map<string, { ours: boolean; until: number }>();

  constructor(private readonly source: OwnDepositAddresses, private readonly now: () => number = Date.now) {}

  async isDepositAddress(blockchain: Blockchain, address: string): Promise<boolean> {
    const key = `${blockchain}:${addressKeyOf(blockchain, address)}`;
    const hit = this.entries.get(key);
    if (hit && (hit.ours || hit.until > this.now())) return hit.ours;
    const ours = await this.source.isDepositAddress(blockchain, address);
    this.entries.delete(key);
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { ours, until: this.now() + NOT_OURS_TTL_MS });
    return ours;
  }
}
