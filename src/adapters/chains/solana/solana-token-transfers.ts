import { getBase58Encoder } from '@solana/kit';
import { TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import type { ChainTransfer } from '../../../core/deposits/chain-ports';

/**
 * The parts of a `getTransaction` answer in `json` encoding the reader reads
 * (https://solana.com/docs/rpc/http/gettransaction, https://solana.com/docs/rpc/json-structures).
 * Numbers may arrive as bigint (@solana/kit parses u64 values so).
 */
export interface JsonTransaction {
  readonly slot: bigint | number;
  readonly transaction: {
    readonly signatures: readonly string[];
    readonly message: {
      readonly accountKeys: readonly string[];
      readonly instructions: readonly JsonInstruction[];
    };
  };
  readonly meta: {
    readonly err: unknown;
    readonly preTokenBalances?: readonly JsonTokenBalance[] | null;
    readonly postTokenBalances?: readonly JsonTokenBalance[] | null;
    readonly innerInstructions?: ReadonlyArray<{ readonly index: number | bigint; readonly instructions: readonly JsonInstruction[] }> | null;
    /** v0 transactions: accounts loaded from address lookup tables, appended after the static keys (writable, then read-only). */
    readonly loadedAddresses?: { readonly writable: readonly string[]; readonly readonly: readonly string[] } | null;
  } | null;
}

/** A compiled instruction: indexes into the transaction's account keys, base58 data. */
export interface JsonInstruction {
  readonly programIdIndex: number | bigint;
  readonly accounts: ReadonlyArray<number | bigint>;
  readonly data: string;
}

/** A token account's balance in a transaction's meta: which account (by index), its mint and owner. */
export interface JsonTokenBalance {
  readonly accountIndex: number | bigint;
  readonly mint: string;
  readonly owner?: string;
  readonly uiTokenAmount: { readonly decimals: number | bigint };
}

/** SPL Token instruction discriminators (https://github.com/solana-program/token, program/src/instruction.rs): Transfer and TransferChecked. */
const TRANSFER = 3;
const TRANSFER_CHECKED = 12;
/** Inner instructions of outer instruction `o` are numbered o × 256 + position + 1 (the runtime's trace holds at most 64 instructions). */
const INNER_STRIDE = 256;

/**
 * The SPL Token `transfer` and `transferChecked` instructions of one successful transaction,
 * outer and inner (made by a program), whose destination token account belongs to one of
 * `owners` (by the transaction's token balances), as ChainTransfers to that owner (docs/chains.md
 * § Solana reader): `index` is outer × 256 for an outer instruction and outer × 256 + position + 1
 * for the inner one at that 0-based position; `token` the mint (TransferChecked names it; for
 * Transfer it is the destination's mint in the token balances); `from` the source account's
 * owner; `units` the instruction's amount; `decimals` the mint's per the token balances.
 * A failed transaction (`meta.err`) or one without meta holds no transfer. Pure.
 */
export function tokenTransfersOf(tx: JsonTransaction, owners: ReadonlySet<string>, blockHash: string): ChainTransfer[] {
  if (!tx.meta || tx.meta.err !== null && tx.meta.err !== undefined) return [];
  const loaded = tx.meta.loadedAddresses;
  const keys = [...tx.transaction.message.accountKeys, ...(loaded?.writable ?? []), ...(loaded?.readonly ?? [])];
  const balances = new Map<number, JsonTokenBalance>();
  // Pre, then post over it: an account closed in the transaction is only in pre, one created in it
  // only in post; either names its owner and mint.
  for (const b of tx.meta.preTokenBalances ?? []) balances.set(Number(b.accountIndex), b);
  for (const b of tx.meta.postTokenBalances ?? []) balances.set(Number(b.accountIndex), b);
  const signature = tx.transaction.signatures[0]!;
  const height = BigInt(tx.slot);
  const transfers: ChainTransfer[] = [];
  const read = (ix: JsonInstruction, index: number) => {
    if (keys[Number(ix.programIdIndex)] !== TOKEN_PROGRAM_ADDRESS) return;
    const data = Uint8Array.from(getBase58Encoder().encode(ix.data));
    const accounts = ix.accounts.map(Number);
    let source: number | undefined, destination: number | undefined, mint: string | undefined;
    if (data[0] === TRANSFER && data.length === 9) [source, destination] = accounts;
    else if (data[0] === TRANSFER_CHECKED && data.length === 10) {
      [source, , destination] = accounts;
      mint = keys[accounts[1]!];
    } else return;
    if (source === undefined || destination === undefined) return;
    const to = balances.get(destination);
    if (!to?.owner || !owners.has(to.owner)) return;
    const units = new DataView(data.buffer, data.byteOffset + 1, 8).getBigUint64(0, true);
    transfers.push({
      chain: 'SOLANA', txHash: signature, index, height, blockHash,
      token: mint ?? to.mint, from: balances.get(source)?.owner ?? keys[source] ?? '', to: to.owner, units, decimals: Number(to.uiTokenAmount.decimals),
    });
  };
  tx.transaction.message.instructions.forEach((ix, outer) => read(ix, outer * INNER_STRIDE));
  for (const group of tx.meta.innerInstructions ?? []) {
    group.instructions.forEach((ix, position) => read(ix, Number(group.index) * INNER_STRIDE + position + 1));
  }
  return transfers.sort((a, b) => a.index - b.index);
}

/** Whether `tx` succeeded and holds, at `index`, a token transfer that `tokenTransfersOf` would read for any owner. Pure. */
export function holdsTransferAt(tx: JsonTransaction, index: number): boolean {
  const owners = new Set<string>();
  for (const b of [...(tx.meta?.preTokenBalances ?? []), ...(tx.meta?.postTokenBalances ?? [])]) if (b.owner) owners.add(b.owner);
  return tokenTransfersOf(tx, owners, '').some((t) => t.index === index);
}
