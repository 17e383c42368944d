import type { Blockchain } from '../catalog/catalog';
import type { ChainHeights, ChainTransfer, WatchedToken } from '../deposits/chain-ports';
import { creditedAmount } from '../deposits/deposit-amount';
import { Decimal, type Stablecoin } from '../shared/money';
import { err, ok, type Result } from '../shared/result';

/**
 * What a chain shows of one transaction (docs/decisions.md § Refunds: reads and operators, "a
 * hand-sent transaction is checked onchain"): not found (unknown, dropped or not yet in a block),
 * failed (in a block, reverted or erred: it moved nothing), or landed with the token transfers
 * it made to the address asked about.
 */
export type TransactionTransfers =
  | { readonly status: 'not_found' }
  | { readonly status: 'failed'; readonly height: bigint }
  | { readonly status: 'landed'; readonly height: bigint; readonly transfers: readonly ChainTransfer[] };

/**
 * Port: reads one transaction on one chain, implemented by each chain's reader in
 * src/adapters/chains over its RPC endpoints. Throws only for infrastructure faults.
 */
export interface TransactionReader {
  readonly chain: Blockchain;
  /**
   * The token transfers of transaction `txHash` (canonical form) whose recipient is `address`
   * (BSC: the ERC-20 `Transfer`'s `to`; Solana: the owner of the receiving token account), of any token.
   */
  transfersIn(txHash: string, address: string): Promise<TransactionTransfers>;
  /** The chain's head and finalized heights now (BSC blocks, Solana slots). */
  heights(): Promise<ChainHeights>;
}

/** A chain whose transactions can be checked: its reader and the tokens the service knows on it. */
export interface CheckedChain {
  readonly reader: TransactionReader;
  readonly tokens: readonly WatchedToken[];
}

/** Why a hand-sent transaction is refused: not final yet (or not found), or it does not pay the refund. */
export type HandSentRefusal = 'tx_not_final' | 'tx_does_not_pay_refund';

/** The refund being recorded, as the check needs it: amount a decimal string at scale 6, in `currency`. */
export interface OwedRefund {
  readonly amount: string;
  readonly currency: Stablecoin;
  readonly blockchain: Blockchain;
  readonly refundAddress: string;
}

/**
 * Whether `seen`, read at `heights`, pays `refund` (docs/decisions.md § Refunds: reads and
 * operators). It must be in a block at or below the finalized height (`tx_not_final` otherwise,
 * also when not found: it may not have landed yet), must not have failed, and its transfers of the
 * refund's token (from `tokens`) to `refundAddress` must add up to at least `refund.amount` plus
 * `alreadyCounted`, the amounts of other refunds already recorded with the same transaction and
 * address (one transaction may pay several refunds, never the same tokens twice);
 * `tx_does_not_pay_refund` otherwise. Amounts are compared at the ledger's scale (6 decimals),
 * base units below it ignored. Pure.
 */
export function judgeHandSent(
  refund: OwedRefund, txHash: string, seen: TransactionTransfers, heights: ChainHeights,
  tokens: readonly WatchedToken[], alreadyCounted: readonly string[],
): Result<void, HandSentRefusal> {
  const where = `Transaction ${txHash} on ${refund.blockchain}`;
  if (seen.status === 'not_found') return err('tx_not_final', `${where} was not found: record it once it is final`);
  if (seen.status === 'failed') return err('tx_does_not_pay_refund', `${where} failed: it moved no tokens`);
  if (seen.height > heights.finalized) {
    return err('tx_not_final', `${where} is in block ${seen.height}, above the finalized ${heights.finalized}: record it once it is final`);
  }
  const token = tokens.find((t) => t.chain === refund.blockchain && t.currency === refund.currency);
  const paid = seen.transfers
    .filter((t) => token !== undefined && t.token === token.token)
    .reduce((sum, t) => sum.plus(creditedAmount(t.units, t.decimals).amount), new Decimal(0));
  const owed = alreadyCounted.reduce((sum, a) => sum.plus(a), new Decimal(refund.amount));
  if (paid.lessThan(owed)) {
    const counted = alreadyCounted.length > 0 ? ` (this refund's ${refund.amount} and ${alreadyCounted.length} other refund(s) recorded with it)` : '';
    return err('tx_does_not_pay_refund', `${where} pays ${paid.toFixed(6)} ${refund.currency} to ${refund.refundAddress}, less than the ${owed.toFixed(6)} owed${counted}`);
  }
  return ok(undefined);
}
