import { readFileSync, statSync } from 'node:fs';
import { inspect } from 'node:util';
import { bytesToHex, hexToBytes, isHex, type Hex } from 'viem';
import { privateKeyToAddress, sign } from 'viem/accounts';
import type { HotWalletSigner } from '../../../core/refunds/refund-sender';

/** Permission bits of a key file that let anyone but its owner read, write or run it (refused in production). */
const OTHERS_BITS = 0o077;

/** Why a hot wallet key could not be loaded; the message names the source, never the key. */
export class BscHotWalletKeyError extends Error {
  override readonly name = 'BscHotWalletKeyError';
}

/**
 * The BSC hot wallet's key custody (docs/decisions.md § Refunds: key custody, docs/chains.md § BSC
 * refunds): a secp256k1 private key held in this process, signing with viem's `sign` and
 * addressed with its `privateKeyToAddress` (viem/accounts, over @noble/curves' secp256k1; the
 * primitives of https://viem.sh/docs/accounts/local/privateKeyToAccount). No crypto of our own.
 *
 * The key lives only in a closure made by the constructor: it is no property of the object, so
 * `util.inspect`, `JSON.stringify`, `toString` and a logged error show the chain and the address
 * only. Nothing here logs.
 *
 * Another custody (a key-management service, an HSM) plugs in by implementing `HotWalletSigner`
 * (core/refunds/refund-sender.ts) itself, and the BSC refund sender takes it unchanged:
 * - `chain`: `'BSC'`;
 * - `address`: the key's Ethereum address, checksummed (EIP-55), as the service knew it before any signature;
 * - `sign(digest)`: `digest` is the 32-byte Keccak-256 of the unsigned EIP-155 legacy transaction;
 *   answer 65 bytes, r (32, big-endian) ‖ s (32, low-s form, EIP-2) ‖ recovery id (one byte, 0 or 1),
 *   the signature of that digest as it is (no hashing again, no Ethereum message prefix). Throw
 *   when the custody cannot sign; never put the key in an error.
 * The sender checks nothing more than the length, so a custody that signs with another key sends
 * transactions from another wallet: check its address at start-up.
 */
export class BscHotWalletSigner implements HotWalletSigner {
  readonly chain = 'BSC' as const;
  readonly address: string;
  readonly sign: (payload: Uint8Array) => Promise<Uint8Array>;

  /** `privateKey`: `0x` + 64 hexadecimal digits. Throws `BscHotWalletKeyError` (naming `source`, not the key) when malformed. */
  constructor(privateKey: string, source: string) {
    const key = privateKey.trim();
    if (!isHex(key, { strict: true }) || key.length !== 66) {
      throw new BscHotWalletKeyError(`${source}: must be a secp256k1 private key, 0x and 64 hexadecimal digits`);
    }
    let address: string;
    try {
      address = privateKeyToAddress(key as Hex);
    } catch {
      // noble's message may quote the input: replaced by ours.
      throw new BscHotWalletKeyError(`${source}: is not a valid secp256k1 private key (zero or above the curve order)`);
    }
    this.address = address;
    this.sign = async (payload: Uint8Array): Promise<Uint8Array> => {
      if (payload.length !== 32) throw new Error(`BSC hot wallet signs 32-byte digests, got ${payload.length} bytes`);
      const { r, s, yParity } = await sign({ hash: bytesToHex(payload), privateKey: key as Hex, to: 'object' });
      if (yParity !== 0 && yParity !== 1) throw new Error('BSC hot wallet: the signature has no recovery id');
      const signature = new Uint8Array(65);
      signature.set(hexToBytes(r, { size: 32 }), 0);
      signature.set(hexToBytes(s, { size: 32 }), 32);
      signature[64] = yParity;
      return signature;
    };
  }

  toString(): string {
    return `BscHotWalletSigner(${this.address})`;
  }

  toJSON(): { chain: 'BSC'; address: string } {
    return { chain: this.chain, address: this.address };
  }

  [inspect.custom](): string {
    return this.toString();
  }
}

/**
 * Reads the key from `path` (a file holding `0x` and 64 hexadecimal digits, surrounding blank
 * space allowed), named as `variable` in errors. With `production`, a file that its group or others
 * may read, write or run (any of the 0o077 bits) is refused, as ssh refuses such a private key: a
 * hot wallet key readable by other accounts of the host is a leak waiting to happen. Throws
 * `BscHotWalletKeyError` naming the variable, never the key nor the file's content.
 */
export function bscHotWalletSignerFromKeyFile(path: string, variable: string, production: boolean): BscHotWalletSigner {
  let content: string;
  try {
    const stats = statSync(path);
    if (!stats.isFile()) throw new BscHotWalletKeyError(`${variable}: is not a regular file`);
    if (production && (stats.mode & OTHERS_BITS) !== 0) {
      throw new BscHotWalletKeyError(`${variable}: the key file is open to its group or others (mode ${(stats.mode & 0o777).toString(8)}); chmod 600 or 400 it`);
    }
    content = readFileSync(path, 'utf8');
  } catch (error) {
    if (error instanceof BscHotWalletKeyError) throw error;
    throw new BscHotWalletKeyError(`${variable}: cannot read the key file (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  return new BscHotWalletSigner(content, variable);
}
