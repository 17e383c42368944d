import type { Blockchain } from '../../core/catalog/catalog';
import type { RefundAttempt, RefundAttemptStatus } from '../../core/refunds/refund-sender';

/** A row of `onchain_refund_attempts` as the driver returns it: bigints and numerics come back as text. */
export interface RefundAttemptRow {
  id: string; refund_id: string; blockchain: Blockchain; wallet: string; tx_hash: string; tx_hashes: string[]; raw_transaction: string;
  nonce: string | null; blockhash: string | null; last_valid_height: string | null; status: RefundAttemptStatus; attempts: number;
  landed_hash: string | null; landed_height: string | null; created_at: Date; signed_at: Date;
}

const big = (value: string | number | null): bigint | null => (value === null ? null : BigInt(value));

/** The attempt a row stores (docs/decisions.md § Refunds). Pure. */
export function attemptOf(row: RefundAttemptRow): RefundAttempt {
  return {
    id: row.id, refundId: row.refund_id, blockchain: row.blockchain, wallet: row.wallet, txHashes: row.tx_hashes, rawTransaction: row.raw_transaction,
    nonce: big(row.nonce), blockhash: row.blockhash, lastValidHeight: big(row.last_valid_height), status: row.status, attempts: row.attempts,
    landedHash: row.landed_hash, landedHeight: big(row.landed_height), createdAt: new Date(row.created_at), signedAt: new Date(row.signed_at),
  };
}

/**
 * A PostgreSQL text[] literal of hashes (the driver would spread a JS array into a list). Hashes
 * are hex or base58, so they need no quoting; anything else is refused rather than escaped.
 */
function hashArray(hashes: readonly string[]): string {
  if (hashes.some((h) => !/^[0-9A-Za-z]+$/.test(h))) throw new Error('a refund transaction hash is neither hex nor base58');
  return `{${hashes.join(',')}}`;
}

/** Column values of `attempt` in the order of `ATTEMPT_COLUMNS`: bigints as text, the hashes as a text[] literal. */
export function attemptValues(attempt: RefundAttempt): unknown[] {
  return [
    attempt.id, attempt.refundId, attempt.blockchain, attempt.wallet, attempt.txHashes.at(-1), hashArray(attempt.txHashes), attempt.rawTransaction,
    attempt.nonce?.toString() ?? null, attempt.blockhash, attempt.lastValidHeight?.toString() ?? null, attempt.status, attempt.attempts,
    attempt.landedHash, attempt.landedHeight?.toString() ?? null, attempt.createdAt, attempt.signedAt,
  ];
}

/** The columns `attemptValues` fills, in order. */
export const ATTEMPT_COLUMNS = [
  'id', 'refund_id', 'blockchain', 'wallet', 'tx_hash', 'tx_hashes', 'raw_transaction', 'nonce', 'blockhash', 'last_valid_height', 'status',
  'attempts', 'landed_hash', 'landed_height', 'created_at', 'signed_at',
] as const;
