/** One RPC endpoint as the guard sees it: its label (host) and a way to ask its chain id. */
export interface GuardedEndpoint {
  readonly label: string;
  /** `eth_chainId` of this endpoint alone (no failover), as a number. */
  chainId(): Promise<number>;
}

/** BSC mainnet's chain id (https://chainlist.org/chain/56). */
export const BSC_CHAIN_ID = 56;

/**
 * Makes sure every configured RPC endpoint serves BSC before the reader trusts it (docs/chains.md
 * § BSC reader): a URL of another chain in the failover list would answer other blocks, and
 * `presence` would then call real deposits absent. Each endpoint is asked `eth_chainId` once it
 * answers; one that cannot be reached is asked again at most every `recheckMs`. A wrong chain id
 * fails every later check, naming the endpoint's label (never its URL).
 */
export class BscEndpointGuard {
  private readonly unverified: Set<GuardedEndpoint>;
  private wrong?: string;
  private lastAttempt?: number;

  constructor(endpoints: readonly GuardedEndpoint[], private readonly recheckMs = 60_000, private readonly now: () => number = Date.now) {
    this.unverified = new Set(endpoints);
  }

  /** Resolves when no endpoint is known to serve another chain; throws an Error naming it otherwise. */
  async check(): Promise<void> {
    if (this.wrong) throw new Error(this.wrong);
    if (this.unverified.size === 0) return;
    if (this.lastAttempt !== undefined && this.now() - this.lastAttempt < this.recheckMs) return;
    this.lastAttempt = this.now();
    await Promise.all([...this.unverified].map(async (endpoint) => {
      let id: number;
      try {
        id = await endpoint.chainId();
      } catch {
        return; // down for now: asked again later; failover covers it meanwhile
      }
      if (id === BSC_CHAIN_ID) this.unverified.delete(endpoint);
      else this.wrong ??= `BSC RPC endpoint ${endpoint.label} serves chain id ${id}, not ${BSC_CHAIN_ID}: fix BSC_RPC_URLS`;
    }));
    if (this.wrong) throw new Error(this.wrong);
  }
}
