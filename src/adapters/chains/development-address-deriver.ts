import { pbkdf2Sync } from 'node:crypto';
import { address as solanaAddress, getAddressDecoder } from '@solana/kit';
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { HDKey, publicKeyToAddress } from 'viem/accounts';
import type { Blockchain } from '../../core/catalog/catalog';
import type { DepositAddressDeriver, WatchedToken } from '../../core/deposits/chain-ports';
import type { Stablecoin } from '../../core/shared/money';
import { ed25519PublicKey, slip10Child, slip10Derive } from './slip10-ed25519';

/**
 * The documented development key of deposit addresses (docs/decisions.md § Onchain deposits:
 * sandbox addresses): the well-known test mnemonic (anvil's default), whose keys everyone knows.
 * Sandbox tenants get addresses from it when no chain is configured, so `npm start` shows them and
 * the local chains can fund them; production refuses it at start (a key anyone can spend from).
 */
export const DEVELOPMENT_MNEMONIC = 'test test test test test test test test test test test junk';

/**
 * BSC: the extended public key at m/44'/60'/1'/0 of DEVELOPMENT_MNEMONIC (account 1, so the
 * addresses are none of anvil's funded accounts); deposit address `i` is its child `i`
 * (m/44'/60'/1'/0/i). Written out so the service never needs the mnemonic for BSC.
 */
export const DEVELOPMENT_BSC_XPUB = 'xpub6EFHUEbYV13535ChA9yg5xZTWowwFCmFoWnhLbwkd91xHoirGu89GTZwBSUBnBpFeY5EV2cgof8yuyDnkeGALcD8DgGYJSiQfkxKpunWTX1';

/**
 * The SLIP-0010 path of the Solana deposit account: owner `i` is its hardened child, at
 * m/44'/501'/1'/0'/i' (44' BIP-44, 501' Solana's coin type, account 1', change 0'), for the
 * development seed and a configured one alike.
 */
export const SOLANA_DEPOSIT_ACCOUNT_PATH: readonly number[] = [44, 501, 1, 0];

/** The BIP-39 seed of DEVELOPMENT_MNEMONIC (PBKDF2-HMAC-SHA512, 2048 rounds, salt "mnemonic", no passphrase). */
export function developmentSolanaSeed(): Buffer {
  return pbkdf2Sync(DEVELOPMENT_MNEMONIC, 'mnemonic', 2048, 64, 'sha512');
}

export { DEVELOPMENT_KEY_ID } from './development-key';

/** secp256k1's field prime: a compressed public key's y is recovered modulo it. */
const SECP256K1_P = 2n ** 256n - 2n ** 32n - 977n;

/**
 * Derives development deposit addresses (DepositAddressDeriver port): BSC by BIP-32 from
 * DEVELOPMENT_BSC_XPUB (public derivation, as production does from its own xpub); Solana owner `i`
 * by SLIP-0010 ed25519 at m/44'/501'/1'/0'/i' of DEVELOPMENT_MNEMONIC, paid through the owner's
 * associated token account of the mint `tokens` names for the currency.
 */
export class DevelopmentAddressDeriver implements DepositAddressDeriver {
  private readonly bsc = HDKey.fromExtendedKey(DEVELOPMENT_BSC_XPUB);
  private readonly solanaAccount = slip10Derive(developmentSolanaSeed(), SOLANA_DEPOSIT_ACCOUNT_PATH);

  constructor(private readonly tokens: readonly WatchedToken[]) {}

  addressAt(chain: Blockchain, index: number): string {
    if (chain === 'BSC') return publicKeyToAddress(`0x${uncompressed(this.bsc.deriveChild(index).publicKey!).toString('hex')}`);
    return getAddressDecoder().decode(ed25519PublicKey(slip10Child(this.solanaAccount, index).key));
  }

  async paymentAddress(chain: Blockchain, currency: Stablecoin, owner: string): Promise<string> {
    if (chain === 'BSC') return owner;
    const mint = this.tokens.find((t) => t.chain === chain && t.currency === currency);
    if (!mint) throw new Error(`no ${currency} mint is watched on ${chain}`);
    const [account] = await findAssociatedTokenPda({ owner: solanaAddress(owner), mint: solanaAddress(mint.token), tokenProgram: TOKEN_PROGRAM_ADDRESS });
    return account;
  }
}

/** A compressed secp256k1 public key (33 bytes) in its 65-byte uncompressed form, y from y² = x³ + 7. */
function uncompressed(compressed: Uint8Array): Buffer {
  const x = BigInt(`0x${Buffer.from(compressed.subarray(1)).toString('hex')}`);
  const power = (base: bigint, exponent: bigint): bigint => {
    let result = 1n;
    for (let b = base % SECP256K1_P, e = exponent; e > 0n; e >>= 1n, b = (b * b) % SECP256K1_P) if (e & 1n) result = (result * b) % SECP256K1_P;
    return result;
  };
  let y = power((x ** 3n + 7n) % SECP256K1_P, (SECP256K1_P + 1n) / 4n);
  if ((y & 1n) !== BigInt(compressed[0]! & 1)) y = SECP256K1_P - y;
  return Buffer.concat([Buffer.from([4]), Buffer.from(x.toString(16).padStart(64, '0'), 'hex'), Buffer.from(y.toString(16).padStart(64, '0'), 'hex')]);
}
