/**
 * Why a refund is not sent and needs an operator (docs/decisions.md § Refunds: refusals), as
 * closed sets of codes the transports map exhaustively.
 */

/**
 * What a chain's `RefundSender` answers for a refund it can never build as it stands, so the pass
 * fails it (`pending` → `failed`) instead of retrying it forever and holding the wallet's queue:
 * - `invalid_address`: `refundAddress` is not an address of the refund's chain (BSC: `0x` and 40
 *   hex digits, with a valid EIP-55 checksum when mixed case; Solana: base58 of 32 bytes);
 * - `own_address`: `refundAddress` is the hot wallet's own address (the tokens would never leave);
 * - `amount_not_representable`: the amount is not a positive decimal the token's base units can
 *   hold exactly (more decimals than the token has, zero, or above its largest amount).
 */
export const REFUND_REFUSALS = ['invalid_address', 'own_address', 'amount_not_representable'] as const;
export type RefundRefusal = (typeof REFUND_REFUSALS)[number];

/**
 * Why a refund is `failed` (stored with it as `failure_reason`): a refusal above, or `reverted`
 * (its transaction landed and reverted onchain).
 */
export const REFUND_FAILURE_REASONS = [...REFUND_REFUSALS, 'reverted'] as const;
export type RefundFailureReason = (typeof REFUND_FAILURE_REASONS)[number];
