import type { Blockchain } from '../catalog/catalog';
import type { Stablecoin } from '../shared/money';

/**
 * Ports between the core's deposit rules and the chain adapters (docs/decisions.md § Onchain
 * deposits). The core never talks to a chain: an adapter per chain reads transfers and heights and
 * answers whether a transfer is still on the canonical chain; the core decides what is detected,
 * credited or dropped, and credits each transfer once.
 */

/** Heights of a chain as one RPC answer saw them: BSC block numbers, Solana slots (non-negative integers). */
export interface ChainHeights {
  /** The newest block or slot the watcher reads transfers up to (BSC `latest`, Solana `confirmed`). */
  readonly head: bigint;
  /** The newest block or slot that can no longer be reorganised (BSC `finalized` tag, Solana `finalized`). */
  readonly finalized: bigint;
}

/**
 * One token transfer to one of our deposit addresses, as read from the chain. Its key is
 * (chain, txHash, index): a rescan, a restart or a duplicate RPC answer gives the same key.
 */
export interface ChainTransfer {
  readonly chain: Blockchain;
  /** Canonical transaction hash (BSC `0x` + 64 lower-case hex) or signature (Solana base58), as `canonicalTxHash` gives it. */
  readonly txHash: string;
  /** BSC: the log's index in its block (`logIndex`). Solana: the instruction's position in its transaction (outer index × 256 + inner index + 1 for an inner one, 0-based outer; see the Solana adapter). Non-negative integer. */
  readonly index: number;
  /** Block number (BSC) or slot (Solana) the transfer was included in. */
  readonly height: bigint;
  /** Hash of the block that included it (BSC), or the slot's blockhash (Solana): a reorganisation changes it. */
  readonly blockHash: string;
  /** Token contract (BSC, lower-case `0x` address) or mint (Solana, base58). Any token, ours or not. */
  readonly token: string;
  /** Sender: the `from` of the ERC-20 `Transfer` log (BSC), the source token account's owner (Solana). */
  readonly from: string;
  /** Our deposit address the transfer credits: the EVM address (BSC) or the token account's owner (Solana). */
  readonly to: string;
  /** Amount in the token's base units, a non-negative integer. */
  readonly units: bigint;
  /** The token's decimals (18 for BSC's USDC and USDT, 6 on Solana). */
  readonly decimals: number;
}

/** Where a transfer stands on the chain when asked again at finality. */
export type TransferPresence = 'present' | 'absent';

/**
 * Port: one chain's reader, implemented per chain in src/adapters/chains over at least two RPC
 * endpoints with failover. Throws only for infrastructure faults (every endpoint down); the
 * watcher then retries later from the same cursor.
 */
export interface ChainReader {
  readonly chain: Blockchain;
  /** The chain's head and finalized heights now. */
  heights(): Promise<ChainHeights>;
  /**
   * Transfers to `addresses` after `cursor` (undefined: from the configured start) up to at most
   * `upTo`, and the cursor to resume from next time. `cursor` is the adapter's own opaque text (a
   * block number, or per-account signatures on Solana); the core stores it and never reads it. A
   * scan may stop early (an RPC refusing a large range): the returned cursor says how far it got.
   */
  scan(addresses: readonly string[], cursor: string | undefined, upTo: bigint): Promise<{ transfers: ChainTransfer[]; cursor: string; scannedTo: bigint }>;
  /** Whether the transfer is still included, in the same transaction at the same height, on the canonical chain. */
  presence(transfer: Pick<ChainTransfer, 'txHash' | 'index' | 'height' | 'blockHash'>): Promise<TransferPresence>;
}

/** A token the service credits on a chain: which stablecoin it is, where. */
export interface WatchedToken {
  readonly chain: Blockchain;
  readonly currency: Stablecoin;
  /** Contract (BSC, lower-case) or mint (Solana). */
  readonly token: string;
  readonly decimals: number;
}

/**
 * Port: derives deposit addresses (docs/decisions.md § Onchain deposits). BSC: the BIP-32 child
 * `index` of an extended public key (no private key held). Solana: the owner key of `index` from
 * a seed behind a key-custody adapter. Pure and deterministic: the same index gives the same
 * address forever.
 */
export interface DepositAddressDeriver {
  /** The deposit address of derivation `index` (a non-negative integer below 2^31) on `chain`. */
  addressAt(chain: Blockchain, index: number): string;
  /**
   * Where a sender pays `currency` for the owner `address`: the address itself on BSC, the
   * owner's associated token account for the mint on Solana.
   */
  paymentAddress(chain: Blockchain, currency: Stablecoin, address: string): string;
}
