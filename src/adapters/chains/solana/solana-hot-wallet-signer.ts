import { readFileSync, statSync } from 'node:fs';
import { inspect } from 'node:util';
import { createKeyPairFromBytes, getAddressDecoder, signBytes } from '@solana/kit';
import type { HotWalletSigner } from '../../../core/refunds/refund-sender';

/** Permission bits of a key file that let anyone but its owner read, write or run it (refused in production). */
const OTHERS_BITS = 0o077;

/** Why a hot wallet key could not be loaded; the message names the source, never the key. */
export class SolanaHotWalletKeyError extends Error {
  override readonly name = 'SolanaHotWalletKeyError';
}

/**
 * The Solana hot wallet's key custody (docs/decisions.md § Refunds: key custody, docs/chains.md §
 * Solana refunds): an ed25519 key pair held in this process as WebCrypto keys made by @solana/kit's
 * `createKeyPairFromBytes` (not extractable: the private key's bytes cannot be read back from them),
 * signing with its `signBytes` (https://github.com/anza-xyz/kit/tree/main/packages/keys). No
 * crypto of our own.
 *
 * WebCrypto imports keys asynchronously while the composition root is synchronous: the constructor
 * starts the import, `sign` awaits it, and `ready()` lets a caller that can wait learn at once
 * whether the key pair is whole (kit checks that the public half belongs to the secret one). The
 * address is the key file's public half, so the sender checks every signature against it.
 *
 * The keys live only in a closure made by the constructor: they are no property of the object, so
 * `util.inspect`, `JSON.stringify`, `toString` and a logged error show the chain and the address
 * only. Nothing here logs.
 *
 * Another custody (a key-management service, an HSM) plugs in by implementing `HotWalletSigner`
 * (core/refunds/refund-sender.ts) itself, and the Solana refund sender takes it unchanged:
 * - `chain`: `'SOLANA'`;
 * - `address`: the ed25519 public key, base58 (32 bytes), the fee payer and token owner;
 * - `sign(message)`: `message` is a serialised transaction message (what Solana signs); answer the
 *   64-byte ed25519 signature of it as it is (no hashing, no prefix). Throw when the custody cannot
 *   sign; never put the key in an error.
 * The sender checks each signature against `address` before it stores a transaction.
 */
export class SolanaHotWalletSigner implements HotWalletSigner {
  readonly chain = 'SOLANA' as const;
  readonly address: string;
  readonly sign: (payload: Uint8Array) => Promise<Uint8Array>;
  /** Resolves once the key pair is imported; rejects with SolanaHotWalletKeyError when it is not a key pair. */
  readonly ready: () => Promise<void>;

  /**
   * `keyPair`: 64 bytes, the ed25519 secret key (32) then its public key (32), as `solana-keygen`
   * writes them; copied, so the caller may wipe its own. Throws `SolanaHotWalletKeyError` (naming
   * `source`, not the key) when the bytes are not 64; a public half that is not the secret's is
   * reported by `ready()` and by every `sign`.
   */
  constructor(keyPair: Uint8Array, source: string) {
    if (keyPair.length !== 64) throw new SolanaHotWalletKeyError(`${source}: must hold 64 bytes (an ed25519 secret key and its public key), got ${keyPair.length}`);
    this.address = getAddressDecoder().decode(keyPair.subarray(32));
    const bytes = Uint8Array.from(keyPair);
    const imported = createKeyPairFromBytes(bytes, false).then(
      (keys) => keys,
      () => {
        // kit's message may describe the bytes: replaced by ours.
        throw new SolanaHotWalletKeyError(`${source}: is not an ed25519 key pair (its last 32 bytes are not the public key of its first 32)`);
      },
    ).finally(() => bytes.fill(0));
    // Reported through ready() and sign(), never as an unhandled rejection.
    imported.catch(() => undefined);
    this.ready = async () => {
      await imported;
    };
    this.sign = async (payload: Uint8Array): Promise<Uint8Array> => new Uint8Array(await signBytes((await imported).privateKey, payload));
  }

  toString(): string {
    return `SolanaHotWalletSigner(${this.address})`;
  }

  toJSON(): { chain: 'SOLANA'; address: string } {
    return { chain: this.chain, address: this.address };
  }

  [inspect.custom](): string {
    return this.toString();
  }
}

/**
 * Reads a key pair in the Solana CLI's key file format (what `solana-keygen new -o FILE` writes,
 * https://docs.anza.xyz/cli/wallets/file-system): a JSON array of 64 integers 0 … 255, the secret
 * key then the public key. Throws an Error that never quotes the text.
 */
export function parseSolanaKeyPair(text: string): Uint8Array {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (!Array.isArray(parsed) || parsed.length !== 64 || !parsed.every((b) => Number.isInteger(b) && b >= 0 && b <= 255)) {
    throw new SolanaHotWalletKeyError('must be a JSON array of 64 bytes (the solana-keygen key file format)');
  }
  return Uint8Array.from(parsed as number[]);
}

/** The signer of a key pair given as text (`solana-keygen`'s JSON array), named as `source` in errors (never the text). */
export function solanaHotWalletSignerFromText(text: string, source: string): SolanaHotWalletSigner {
  let bytes: Uint8Array;
  try {
    bytes = parseSolanaKeyPair(text);
  } catch (error) {
    throw new SolanaHotWalletKeyError(`${source}: ${(error as Error).message}`);
  }
  try {
    return new SolanaHotWalletSigner(bytes, source);
  } finally {
    bytes.fill(0);
  }
}

/**
 * Reads the key pair from the key file at `path` (the Solana CLI format, see `parseSolanaKeyPair`),
 * named as `variable` in errors. With `production`, a file that its group or others may read, write
 * or run (any of the 0o077 bits) is refused, as ssh refuses such a private key. Throws
 * `SolanaHotWalletKeyError` naming the variable, never the key nor the file's content.
 */
export function solanaHotWalletSignerFromKeyFile(path: string, variable: string, production: boolean): SolanaHotWalletSigner {
  let content: string;
  try {
    const stats = statSync(path);
    if (!stats.isFile()) throw new SolanaHotWalletKeyError(`${variable}: is not a regular file`);
    if (production && (stats.mode & OTHERS_BITS) !== 0) {
      throw new SolanaHotWalletKeyError(`${variable}: the key file is open to its group or others (mode ${(stats.mode & 0o777).toString(8)}); chmod 600 or 400 it`);
    }
    content = readFileSync(path, 'utf8');
  } catch (error) {
    if (error instanceof SolanaHotWalletKeyError) throw error;
    throw new SolanaHotWalletKeyError(`${variable}: cannot read the key file (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  return solanaHotWalletSignerFromText(content, variable);
}
