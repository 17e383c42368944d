import { HDKey } from '@scure/bip32';
import { ECDH } from 'node:crypto';
import { publicKeyToAddress } from 'viem/accounts';

/**
 * The development deposit key (docs/chains.md § Deposit addresses): the extended public key at
 * m/44'/60'/1'/0 of anvil's default mnemonic "test test test test test test test test test test
 * test junk". Child i is the address viem's `mnemonicToAccount(mnemonic, { accountIndex: 1,
 * addressIndex: i })` signs for (`cast wallet address --mnemonic "test … junk"
 * --mnemonic-derivation-path "m/44'/60'/1'/0/i"`), so a developer can move what a local deposit
 * address holds. Account 1' rather than 0' keeps deposit addresses apart from anvil's funded
 * senders (m/44'/60'/0'/0/i). Anyone can sign for these addresses: production refuses this key.
 */
export const BSC_DEVELOPMENT_XPUB =
  'xpub6EFHUEbYV13535ChA9yg5xZTWowwFCmFoWnhLbwkd91xHoirGu89GTZwBSUBnBpFeY5EV2cgof8yuyDnkeGALcD8DgGYJSiQfkxKpunWTX1';

/**
 * Extended public keys anyone can sign for, refused in production: the development key above and
 * anvil's own default account key (m/44'/60'/0'/0 of the same mnemonic).
 */
export const BSC_PUBLICLY_KNOWN_XPUBS: readonly string[] = [
  BSC_DEVELOPMENT_XPUB,
  'xpub6DyUKdwoLWmUJ4Tn9Bbsdtx7B5Ws18mEN19e5HT52ikE53FiUheSQXrZUNPovqfyKmw4579A1Mm3GXXKM39N64uooBfJ4tNAzFsEbodRTx4',
];

/** Non-hardened BIP-32 child indexes are 0 … 2^31 − 1: public derivation cannot reach the others. */
const MAX_INDEX = 0x7fffffff;

/**
 * Reads a BIP-32 extended public key (`xpub…`, Bitcoin mainnet version bytes, as wallets export
 * them). Throws an Error that never quotes the key when the text is not one, or when it is an
 * extended PRIVATE key (`xprv…`): the service holds no deposit private key
 * (https://github.com/bitcoin/bips/blob/master/bip-0032.mediawiki, "Serialization format").
 */
export function parseExtendedPublicKey(xpub: string): HDKey {
  let key: HDKey;
  try {
    key = HDKey.fromExtendedKey(xpub);
  } catch {
    throw new Error('not a BIP-32 extended public key (xpub…)');
  }
  if (key.privateKey) throw new Error('is an extended PRIVATE key: give the extended public key (xpub…); the service holds no deposit private key');
  if (!key.publicKey) throw new Error('not a BIP-32 extended public key (xpub…)');
  return key;
}

/**
 * BSC deposit addresses (the BSC part of the core's DepositAddressDeriver, docs/chains.md §
 * Deposit addresses): address i is the Ethereum-style address of the BIP-32 child i of an
 * extended public key (@scure/bip32 `deriveChild`, then keccak-256 of the uncompressed key via
 * viem's `publicKeyToAddress`). Addresses are returned in LOWER CASE, the form the core stores
 * and compares; show them checksummed (viem `getAddress`) if a person reads them. Pure and
 * deterministic; holds no private key.
 */
export class BscAddressDeriver {
  private readonly key: HDKey;

  /** Throws (see `parseExtendedPublicKey`) when `xpub` is not an extended public key. */
  constructor(xpub: string) {
    this.key = parseExtendedPublicKey(xpub);
  }

  /**
   * The deposit address of child `index`, `0x` + 40 lower-case hex digits. Throws for an index
   * that is not an integer in 0 … 2^31 − 1 (a caller's bug: hardened children cannot be derived
   * from a public key), and in the 1-in-2^127 case BIP-32 gives no child for an index.
   */
  addressAt(index: number): string {
    if (!Number.isInteger(index) || index < 0 || index > MAX_INDEX) {
      throw new RangeError(`BSC deposit address index must be an integer in 0..${MAX_INDEX}, got ${index}`);
    }
    const child = this.key.deriveChild(index);
    const uncompressed = ECDH.convertKey(Buffer.from(child.publicKey!), 'secp256k1', undefined, 'hex', 'uncompressed') as string;
    return publicKeyToAddress(`0x${uncompressed}`).toLowerCase();
  }

  /** Where a sender pays a token to the deposit address `address`: on BSC the address itself. */
  paymentAddress(address: string): string {
    return address;
  }
}
