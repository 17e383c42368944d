/**
 * States of an onchain refund, as data (docs/decisions.md § Refunds). One pure `transition()`
 * decides every move; a move that does not start from the refund's status is refused, never forced.
 *
 * - `pending`: owed, nothing onchain yet (or the last attempt was dropped and a new one is due).
 * - `broadcast`: an attempt was signed, stored and broadcast; the refund waits for finality.
 * - `confirmed`: an attempt landed in a final block or slot; the ledger moved refund_pending → refunded.
 * - `failed`: needs an operator (the transaction landed but reverted, or the chain refused it).
 * - `sent`: an operator recorded a hand-sent transaction (POST /v1/admin/refunds/{refundId}/sent).
 */
export const REFUND_STATUSES = ['pending', 'broadcast', 'confirmed', 'failed', 'sent'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/**
 * The statuses a refund reaches with no hot wallet configured (operators send by hand), which
 * are the statuses the admin API documents today (GET /v1/admin/refunds).
 */
export const MANUAL_REFUND_STATUSES = ['pending', 'sent'] as const satisfies readonly RefundStatus[];

/**
 * The moves of a refund (docs/decisions.md § Refunds):
 * - `broadcast`: the first broadcast of a stored attempt;
 * - `confirm`: an attempt is in a block or slot at or below the finalized height;
 * - `drop`: no attempt can land any more (BSC: the hot wallet's nonce moved past it at finality
 *   with none of its hashes found; Solana: its blockhash's last valid height passed at finality
 *   and its signature is not found), so the refund is owed again and a new attempt is signed;
 * - `fail`: the transaction landed and reverted, or the chain refused it: an operator decides;
 * - `retry`: an operator sends a failed refund back to the queue;
 * - `record_sent`: an operator recorded a hand-sent transaction (today's manual path), for a refund
 *   owed or failed (a refused address, a reverted transaction: the operator sent it another way).
 */
export const REFUND_MOVES = {
  broadcast: { from: ['pending'], to: 'broadcast' },
  confirm: { from: ['broadcast'], to: 'confirmed' },
  drop: { from: ['broadcast'], to: 'pending' },
  fail: { from: ['pending', 'broadcast'], to: 'failed' },
  retry: { from: ['failed'], to: 'pending' },
  record_sent: { from: ['pending', 'failed'], to: 'sent' },
} as const satisfies Record<string, { from: readonly RefundStatus[]; to: RefundStatus }>;
export type RefundMove = keyof typeof REFUND_MOVES;

/** The status `move` leads to from `from`, or undefined when the move does not start there. Pure. */
export function transition(from: RefundStatus, move: RefundMove): RefundStatus | undefined {
  const rule = REFUND_MOVES[move];
  return (rule.from as readonly RefundStatus[]).includes(from) ? rule.to : undefined;
}

/** Whether the refund is over (no move leads anywhere but by an operator's hand). */
export function isFinalRefundStatus(status: RefundStatus): boolean {
  return status === 'confirmed' || status === 'sent';
}
