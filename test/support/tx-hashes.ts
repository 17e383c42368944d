import { randomBytes } from 'node:crypto';

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** Base58 (Bitcoin alphabet) of `bytes`, each leading zero byte written as `1`. */
export function base58Encode(bytes: Uint8Array): string {
  let value = BigInt(`0x${Buffer.from(bytes).toString('hex') || '0'}`);
  let out = '';
  while (value > 0n) {
    out = BASE58[Number(value % 58n)]! + out;
    value /= 58n;
  }
  const zeros = bytes.findIndex((b) => b !== 0);
  return '1'.repeat(zeros === -1 ? bytes.length : zeros) + out;
}

/** A fresh, well-formed Solana transaction signature: base58 of 64 random bytes. */
export const solanaTxHash = (): string => base58Encode(randomBytes(64));

/** A fresh, well-formed BSC transaction hash: 0x and 64 lower-case hex digits. */
export const bscTxHash = (): string => `0x${randomBytes(32).toString('hex')}`;
