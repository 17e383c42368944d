import type { Blockchain } from '../catalog/catalog';

/**
 * A refund's onchain attempts as the core and its storage see them (docs/decisions.md § Refunds);
 * the ports that make them are in refund-sender.ts.
 */

/** Attempt states: `signed` (stored, maybe not broadcast), `broadcast`, `landed` (final), `reverted` (final, failed onchain), `dropped` (can never land). */
export const REFUND_ATTEMPT_STATUSES = ['signed', 'broadcast', 'landed', 'reverted', 'dropped'] as const;
export type RefundAttemptStatus = (typeof REFUND_ATTEMPT_STATUSES)[number];

/**
 * A transaction built and signed for a refund, not yet stored. BSC: `nonce` is set, the blockhash
 * fields are null. Solana: `blockhash` and `lastValidHeight` (a block height) are set, `nonce` is null.
 */
export interface SignedRefund {
  /** Canonical hash (BSC `0x` + 64 lower-case hex) or signature (Solana base58). */
  readonly txHash: string;
  /** The signed transaction as broadcast (BSC `0x` hex, Solana base64): public once sent, never a key. */
  readonly rawTransaction: string;
  readonly nonce: bigint | null;
  readonly blockhash: string | null;
  readonly lastValidHeight: bigint | null;
}

/**
 * One onchain attempt of a refund: one nonce of the hot wallet (BSC) or one blockhash (Solana).
 * Unique per (blockchain, wallet, nonce) and per (blockchain, tx hash) in PostgreSQL. A BSC
 * replacement under the same nonce is the same attempt with one more hash: every hash it ever
 * signed is in `txHashes` (oldest first, the one to broadcast last), since any of them may land.
 */
export interface RefundAttempt extends Omit<SignedRefund, 'txHash'> {
  /** `rfa_` + ULID. */
  readonly id: string;
  readonly refundId: string;
  readonly blockchain: Blockchain;
  /** The hot wallet's address that signs it. */
  readonly wallet: string;
  readonly txHashes: readonly string[];
  readonly status: RefundAttemptStatus;
  /** How many transactions were signed for it (1, then one more per replacement). */
  readonly attempts: number;
  /** The hash that landed, once `landed` or `reverted`. */
  readonly landedHash: string | null;
  readonly landedHeight: bigint | null;
  readonly createdAt: Date;
  /** When its current transaction was signed (a replacement resets it). */
  readonly signedAt: Date;
}
