import { createHmac, createPrivateKey, createPublicKey } from 'node:crypto';

/**
 * SLIP-0010 ed25519 key derivation (https://github.com/satoshilabs/slips/blob/master/slip-0010.md):
 * the master node is HMAC-SHA512 keyed "ed25519 seed" over the seed; each child is
 * HMAC-SHA512(chain code, 0x00 ‖ parent key ‖ index) with the index hardened (ed25519 has no
 * public derivation, so every level is hardened). Wallets derive Solana accounts this way
 * (m/44'/501'/…). Pure; node:crypto only.
 */

/** One node of the derivation tree: a 32-byte ed25519 private key (seed) and its 32-byte chain code. */
export interface Slip10Node {
  readonly key: Buffer;
  readonly chainCode: Buffer;
}

const HARDENED = 0x8000_0000;
/** PKCS#8 DER prefix of a raw 32-byte ed25519 private key (RFC 8410, section 7). */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/**
 * The node at `path` under the master node of `seed` (16 to 64 bytes, e.g. a BIP-39 seed of 64).
 * `path` lists child indexes below 2^31, each taken hardened: [44, 501, 1, 0] is m/44'/501'/1'/0'.
 */
export function slip10Derive(seed: Uint8Array, path: readonly number[]): Slip10Node {
  const master = createHmac('sha512', 'ed25519 seed').update(seed).digest();
  return path.reduce<Slip10Node>((node, index) => slip10Child(node, index), { key: master.subarray(0, 32), chainCode: master.subarray(32) });
}

/** The hardened child `index` (an integer in 0 … 2^31 − 1) of an ed25519 SLIP-0010 node. Throws a RangeError otherwise. */
export function slip10Child(node: Slip10Node, index: number): Slip10Node {
  if (!Number.isInteger(index) || index < 0 || index >= HARDENED) throw new RangeError(`SLIP-0010 index must be an integer in 0..${HARDENED - 1}, got ${index}`);
  const data = Buffer.alloc(37);
  node.key.copy(data, 1);
  data.writeUInt32BE((index | HARDENED) >>> 0, 33);
  const digest = createHmac('sha512', node.chainCode).update(data).digest();
  return { key: digest.subarray(0, 32), chainCode: digest.subarray(32) };
}

/** The 32-byte ed25519 public key of a 32-byte private key (RFC 8032), through node:crypto. */
export function ed25519PublicKey(privateKey: Uint8Array): Buffer {
  const key = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, privateKey]), format: 'der', type: 'pkcs8' });
  const der = createPublicKey(key).export({ format: 'der', type: 'spki' });
  return der.subarray(der.length - 32);
}
