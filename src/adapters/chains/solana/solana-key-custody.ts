import { createHash } from 'node:crypto';
import { getAddressDecoder } from '@solana/kit';
import { developmentSolanaSeed, SOLANA_DEPOSIT_ACCOUNT_PATH } from '../development-address-deriver';
import { ed25519PublicKey, slip10Child, slip10Derive, type Slip10Node } from '../slip10-ed25519';

/**
 * Port: where the Solana deposit owners' keys live (docs/chains.md § Solana deposit addresses).
 * ed25519 has no public derivation, so deriving owner `i` needs the secret seed: whatever holds it
 * (the process from its configuration today, a KMS or HSM tomorrow) answers only public keys here.
 */
export interface SolanaKeyCustody {
  /** Names the key without revealing it: the same seed gives the same text, another seed another. */
  readonly fingerprint: string;
  /** The base58 address (32-byte ed25519 public key) of owner `index` (an integer in 0 … 2^31 − 1). */
  ownerAddress(index: number): string;
}

/**
 * The key-custody adapter over a seed held in memory: owner `i` is the SLIP-0010 ed25519 key at
 * m/44'/501'/1'/0'/i' of the seed. The seed never leaves this object; the fingerprint is
 * `solana:` and the first 16 hex digits of SHA-256 over owner 0's public key, so it names the key
 * and can be logged.
 */
export class SeedKeyCustody implements SolanaKeyCustody {
  readonly fingerprint: string;
  private readonly account: Slip10Node;

  /** `seed`: 16 to 64 bytes (a BIP-39 seed is 64). */
  constructor(seed: Uint8Array) {
    if (seed.length < 16 || seed.length > 64) throw new RangeError('a SLIP-0010 seed has 16 to 64 bytes');
    this.account = slip10Derive(seed, SOLANA_DEPOSIT_ACCOUNT_PATH);
    this.fingerprint = `solana:${createHash('sha256').update(this.ownerAddress(0)).digest('hex').slice(0, 16)}`;
  }

  ownerAddress(index: number): string {
    return getAddressDecoder().decode(ed25519PublicKey(slip10Child(this.account, index).key));
  }
}

/** The fingerprint of the documented development seed (production refuses a key with it). */
export const DEVELOPMENT_SOLANA_FINGERPRINT = new SeedKeyCustody(developmentSolanaSeed()).fingerprint;
