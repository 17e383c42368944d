/**
 * Decoding SPL Token transfers from a `getTransaction` answer in `json` encoding (docs/chains.md §
 * Solana reader), on hand-made answers for what the local chain does not produce: accounts loaded
 * from address lookup tables, other programs, malformed data, amounts above 2^53.
 */
import { getBase58Decoder } from '@solana/kit';
import { TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { holdsTransferAt, tokenTransfersOf, type JsonTransaction } from '../../src/adapters/chains/solana/solana-token-transfers';

const MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const OWNER = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';
const SENDER = 'oeYf6KAJkLYhBuR8CiGc6L4D4Xtfepr85fuDgA9kq96';
const KEYS = [SENDER, 'So11111111111111111111111111111111111111112', TOKEN_PROGRAM_ADDRESS, 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr'];
const SOURCE = '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T';
const DESTINATION = 'HYA4w1zgMy2Et9iYtCWkxMVpkS4rw8tQsMC3EMp5vF7q';
const SIGNATURE = '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW';

function data(discriminator: number, units: bigint, decimals?: number): string {
  const bytes = new Uint8Array(decimals === undefined ? 9 : 10);
  bytes[0] = discriminator;
  new DataView(bytes.buffer).setBigUint64(1, units, true);
  if (decimals !== undefined) bytes[9] = decimals;
  return getBase58Decoder().decode(bytes);
}

/** A v0 transaction whose two token accounts come from a lookup table: source at 4 (writable), destination at 5. */
function tx(instructions: JsonTransaction['transaction']['message']['instructions'], err: unknown = null): JsonTransaction {
  const balance = (accountIndex: number, owner: string) => ({ accountIndex, mint: MINT, owner, uiTokenAmount: { decimals: 6 } });
  return {
    slot: 300_000_000n,
    transaction: { signatures: [SIGNATURE], message: { accountKeys: KEYS, instructions } },
    meta: {
      err, preTokenBalances: [balance(4, SENDER)], postTokenBalances: [balance(4, SENDER), balance(5, OWNER)],
      innerInstructions: [], loadedAddresses: { writable: [SOURCE, DESTINATION], readonly: [] },
    },
  };
}

describe('tokenTransfersOf', () => {
  it('reads transfer and transferChecked through accounts loaded from lookup tables, amounts above 2^53 exactly', () => {
    const big = 2n ** 60n + 7n;
    const read = tokenTransfersOf(tx([
      { programIdIndex: 2, accounts: [4, 5, 0], data: data(3, big) },
      { programIdIndex: 2, accounts: [4, 1, 5, 0], data: data(12, 5n, 6) },
    ]), new Set([OWNER]), 'BLOCKHASH');
    expect(read).toEqual([
      { chain: 'SOLANA', txHash: SIGNATURE, index: 0, height: 300_000_000n, blockHash: 'BLOCKHASH', token: MINT, from: SENDER, to: OWNER, units: big, decimals: 6 },
      // TransferChecked names its mint (here a key that is not the balances' mint): that one is the token.
      { chain: 'SOLANA', txHash: SIGNATURE, index: 256, height: 300_000_000n, blockHash: 'BLOCKHASH', token: KEYS[1], from: SENDER, to: OWNER, units: 5n, decimals: 6 },
    ]);
    expect(holdsTransferAt(tx([{ programIdIndex: 2, accounts: [4, 5, 0], data: data(3, 1n) }]), 0)).toBe(true);
  });

  it('ignores other programs, other token instructions, malformed data, recipients not asked for, and failed transactions', () => {
    const owners = new Set([OWNER]);
    expect(tokenTransfersOf(tx([{ programIdIndex: 3, accounts: [4, 5, 0], data: data(3, 1n) }]), owners, 'B')).toEqual([]);
    expect(tokenTransfersOf(tx([{ programIdIndex: 2, accounts: [4, 5, 0], data: data(7, 1n) }]), owners, 'B')).toEqual([]);
    expect(tokenTransfersOf(tx([{ programIdIndex: 2, accounts: [4, 5, 0], data: data(3, 1n, 6) }]), owners, 'B')).toEqual([]);
    expect(tokenTransfersOf(tx([{ programIdIndex: 2, accounts: [4], data: data(3, 1n) }]), owners, 'B')).toEqual([]);
    expect(tokenTransfersOf(tx([{ programIdIndex: 2, accounts: [4, 5, 0], data: data(3, 1n) }]), new Set([SENDER]), 'B')).toEqual([]);
    expect(tokenTransfersOf(tx([{ programIdIndex: 2, accounts: [4, 5, 0], data: data(3, 1n) }], { InstructionError: [0, { Custom: 1 }] }), owners, 'B')).toEqual([]);
    expect(holdsTransferAt(tx([{ programIdIndex: 2, accounts: [4, 5, 0], data: data(3, 1n) }]), 256)).toBe(false);
  });

  it('numbers inner instructions outer × 256 + position + 1', () => {
    const t = tx([{ programIdIndex: 3, accounts: [], data: '' }, { programIdIndex: 3, accounts: [], data: '' }]);
    const inner = { ...t, meta: { ...t.meta!, innerInstructions: [{ index: 1, instructions: [{ programIdIndex: 3, accounts: [], data: '' }, { programIdIndex: 2, accounts: [4, 5, 0], data: data(3, 9n) }] }] } };
    expect(tokenTransfersOf(inner, new Set([OWNER]), 'B').map((x) => [x.index, x.units])).toEqual([[256 + 1 + 1, 9n]]);
  });
});
