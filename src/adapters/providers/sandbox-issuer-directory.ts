import { createHash } from 'node:crypto';
import type { IssuerDirectory, IssuerLookup } from '../../core/resolution/resolution-ports';
import { err, ok } from '../../core/shared/result';

/** A username ending in this does not resolve (docs/decisions.md § Sandbox values). */
const UNRESOLVABLE_SUFFIX = '0000';

/**
 * The sandbox wallet-issuer directory (docs/decisions.md § Sandbox values): every user exists except usernames ending
 * 0000. The address is derived from (issuer, username, network) with SHA-256, so it is stable
 * across calls, replicas and restarts, and well-formed: base58 of the 32-byte digest for Solana
 * (the size of an ed25519 public key), `0x` + the first 20 bytes in lower-case hex for Base.
 * These addresses belong to nobody: never send real funds to them. Never `upstream_unavailable`.
 */
export class SandboxIssuerDirectory implements IssuerDirectory {
  async walletAddress(lookup: IssuerLookup) {
    if (lookup.username.endsWith(UNRESOLVABLE_SUFFIX)) {
      return err('account_not_found' as const, `No user ${lookup.username} at ${lookup.issuer}`);
    }
    // JSON keeps the three parts unambiguous (no separator can be forged from inside a username).
    const digest = createHash('sha256').update(JSON.stringify([lookup.issuer, lookup.username, lookup.network])).digest();
    const walletAddress = lookup.network === 'Solana' ? base58(digest) : `0x${digest.subarray(0, 20).toString('hex')}`;
    return ok({ walletAddress });
  }
}

const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/**
 * Base58 (Bitcoin alphabet, as Solana addresses use) of `bytes`: the big-endian number in base 58,
 * each leading zero byte kept as a leading '1'. 32 bytes give 32 to 44 characters.
 */
export function base58(bytes: Uint8Array): string {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  let out = '';
  while (value > 0n) {
    out = BASE58_ALPHABET.charAt(Number(value % 58n)) + out;
    value /= 58n;
  }
  for (const byte of bytes) {
    if (byte !== 0) break;
    out = `1${out}`;
  }
  return out;
}
