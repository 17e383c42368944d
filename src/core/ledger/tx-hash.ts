import type { Blockchain } from '../catalog/catalog';
import { err, ok, type Result } from '../shared/result';

/** A BSC (EVM) transaction hash: `0x` and 32 bytes in hex, any case on input. */
const BSC_TX_HASH = /^0x[0-9a-fA-F]{64}$/;
/** Bitcoin's base58 alphabet, which Solana uses: no 0, O, I or l. */
const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
/** Bytes of an ed25519 signature, which is what identifies a Solana transaction. */
const SOLANA_SIGNATURE_BYTES = 64;
/** 64 bytes never take more than 88 base58 characters: longer input is refused before decoding. */
const SOLANA_SIGNATURE_MAX_CHARS = 88;

/**
 * Decodes base58 (Bitcoin alphabet) into bytes, each leading `1` being one leading zero byte.
 * Returns undefined when `text` holds a character outside the alphabet. Pure; quadratic in the
 * length, so callers bound the length first.
 */
export function base58Decode(text: string): Uint8Array | undefined {
  const littleEndian: number[] = [];
  for (const char of text) {
    let carry = BASE58_ALPHABET.indexOf(char);
    if (carry < 0) return undefined;
    for (let i = 0; i < littleEndian.length; i++) {
      carry += littleEndian[i]! * 58;
      littleEndian[i] = carry & 0xff;
      carry >>= 8;
    }
    for (; carry > 0; carry >>= 8) littleEndian.push(carry & 0xff);
  }
  const zeros = /^1*/.exec(text)![0].length;
  return Uint8Array.from([...new Array<number>(zeros).fill(0), ...littleEndian.reverse()]);
}

/**
 * The canonical form of an onchain transaction hash, the form deposits are stored and compared in
 * (docs/decisions.md § Ledger): on BSC `0x` + 64 hex digits, lower-cased; on SOLANA a base58
 * transaction signature that decodes to 64 bytes, kept as given (base58 has one spelling per byte
 * string). Nothing is trimmed: surrounding whitespace is an error, not something to clean up.
 * Pure. Errors: `validation_error` (field `txHash`).
 */
export function canonicalTxHash(blockchain: Blockchain, txHash: string): Result<string, 'validation_error'> {
  if (blockchain === 'BSC') {
    return BSC_TX_HASH.test(txHash)
      ? ok(txHash.toLowerCase())
      : err('validation_error', 'txHash must be 0x followed by 64 hexadecimal digits on BSC', { field: 'txHash' });
  }
  const bytes = txHash.length <= SOLANA_SIGNATURE_MAX_CHARS ? base58Decode(txHash) : undefined;
  return bytes?.length === SOLANA_SIGNATURE_BYTES
    ? ok(txHash)
    : err('validation_error', 'txHash must be a base58 transaction signature of 64 bytes on SOLANA', { field: 'txHash' });
}
