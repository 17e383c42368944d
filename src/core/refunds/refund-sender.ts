import type { Blockchain } from '../catalog/catalog';
import type { ChainHeights } from '../deposits/chain-ports';
import type { HotWalletBalances } from './hot-wallet-balances';
import type { OnchainRefund } from './onchain-refund';
import type { RefundAttempt, SignedRefund } from './refund-attempt';
import type { RefundRefusal } from './refund-refusal';

export { REFUND_ATTEMPT_STATUSES, type RefundAttempt, type RefundAttemptStatus, type SignedRefund } from './refund-attempt';
export { REFUND_REFUSALS, type RefundRefusal } from './refund-refusal';

/**
 * Ports between the core's refund rules and the chains (docs/decisions.md § Refunds). The core
 * never signs nor talks to a chain: a `RefundSender` per chain builds, signs, broadcasts and looks
 * transactions up, with the hot wallet's key behind a `HotWalletSigner`.
 */

/** What a chain says about one transaction hash: in a block or slot (succeeded or reverted), or not found. */
export type TransactionLookup =
  | { readonly status: 'landed'; readonly height: bigint }
  | { readonly status: 'reverted'; readonly height: bigint; readonly reason: string }
  | { readonly status: 'not_found' };

/**
 * Port: the key custody of one hot wallet (docs/decisions.md § Refunds). Holds the private key (a
 * key file, a hex variable in development, a key-management service later) and signs; never
 * reveals the key, and adapters never log it.
 */
export interface HotWalletSigner {
  readonly chain: Blockchain;
  /** The wallet's address (BSC checksummed `0x`, Solana base58). */
  readonly address: string;
  /**
   * Signs `payload`: BSC, a 32-byte Keccak-256 digest of a serialised transaction, answered as 65
   * bytes r ‖ s ‖ recovery id (0 or 1); Solana, a transaction message, answered as a 64-byte ed25519 signature.
   */
  sign(payload: Uint8Array): Promise<Uint8Array>;
}

/**
 * Port: sends refunds on one chain from one hot wallet, implemented per chain in
 * src/adapters/chains. Methods throw only for infrastructure faults (every RPC endpoint down); the
 * worker then tries again on its next pass, from what is stored.
 */
export interface RefundSender {
  readonly chain: Blockchain;
  /** The hot wallet's address. */
  readonly wallet: string;
  /**
   * Whether this sender can never send `refund` as it stands (docs/decisions.md § Refunds:
   * refusals): `invalid_address`, `own_address` (the hot wallet's own) or
   * `amount_not_representable` in the token's base units; undefined when it can be built.
   * Synchronous and offline (the refund and the sender's configuration only), asked before
   * anything else for a new attempt; `sign` throws for a refund this refuses.
   */
  refusal(refund: OnchainRefund): RefundRefusal | undefined;
  /**
   * Builds and signs the token transfer of `refund` (its whole amount to its `refundAddress`).
   * BSC: under `nonce` when given (a replacement, with a higher fee than `replacing`), else under
   * the next nonce after `lastNonce` and the wallet's pending nonce on the chain, whichever is
   * higher. Solana: on a fresh blockhash. Nothing is sent.
   */
  sign(refund: OnchainRefund, options: { lastNonce: bigint | null; replacing?: RefundAttempt }): Promise<SignedRefund>;
  /** Broadcasts a stored signed transaction; a transaction the chain already knows is not an error. */
  broadcast(rawTransaction: string): Promise<void>;
  /** Where the transaction `txHash` stands. */
  lookup(txHash: string): Promise<TransactionLookup>;
  /** The chain's head and finalized heights now (BSC blocks, Solana slots). */
  heights(): Promise<ChainHeights>;
  /**
   * Whether none of `attempt`'s transactions can land any more, judged at finality: BSC, the
   * wallet's nonce at the finalized block is past the attempt's nonce; Solana, the finalized block
   * height is past its `lastValidHeight`. Asked only when none of its hashes is found.
   */
  expired(attempt: RefundAttempt): Promise<boolean>;
  /** Whether a broadcast attempt signed at `signedAt` should be replaced with a higher fee (BSC), by `now`. Solana never replaces. */
  stuck(attempt: RefundAttempt, now: Date): boolean;
  /**
   * What the hot wallet lacks to send `refund` now (docs/decisions.md § Refunds: funds and fees):
   * `token` when its balance of the refund's token is below the refund's amount, `gas` when its
   * native balance (BNB, SOL) is below the fee of one transfer (Solana: plus a token account's rent
   * when the recipient has none), undefined when it can send. Asked before a new attempt is signed.
   */
  shortfall(refund: OnchainRefund): Promise<RefundShortfall | undefined>;
  /**
   * The hot wallet's balances now, for metrics and thresholds (docs/decisions.md § Refunds: balances
   * as metrics): its native coin (BNB, SOL) and each configured stablecoin, decimal strings in
   * whole units. Read at most every REFUND_BALANCE_INTERVAL_MS by the worker, never per pass.
   */
  balances(): Promise<HotWalletBalances>;
}

/** What a hot wallet lacks to send a refund: its token balance, or its native balance for fees. */
export type RefundShortfall = 'token' | 'gas';
