import { createHmac, hkdfSync } from 'node:crypto';
import { AesGcmSecretBox } from './secret-box';

/** HKDF info labels: one key per purpose, both derived from the service's 32-byte secret key. */
const ENCRYPTION_INFO = 'payout-gateway/personal-data/aes-256-gcm/v1';
const KEYED_HASH_INFO = 'payout-gateway/personal-data/hmac-sha256/v1';
/** Version tags: the key (and scheme) that produced a value, so keys can rotate later. */
const SEAL_TAG = 'pd1';
const HASH_TAG = 'ph1';

/** What a keyed hash is of: the purpose goes into the hashed text, so equal inputs of two purposes never collide. */
export type KeyedHashPurpose = 'id-number' | 'idempotency-fingerprint' | 'provider-callback';

/**
 * Personal data at rest (docs/decisions.md § Personal data and secrets): id numbers, account
 * numbers and account names are sealed with AES-256-GCM (`pd1.` + base64(iv | tag | ciphertext)),
 * and where equality must still be checked, a keyed hash stands in for the clear value
 * (`ph1.` + base64url(HMAC-SHA256), 47 characters). Both keys come from the service's 32-byte
 * secret key (WEBHOOK_SECRET_KEY) through HKDF-SHA256 with distinct info labels, so no new secret
 * has to be configured and neither key is the one that seals webhook secrets.
 */
export class PersonalDataBox {
  private readonly box: AesGcmSecretBox;
  private readonly hashKey: Buffer;

  constructor(masterKey: Buffer) {
    if (masterKey.length !== 32) throw new Error('the secret key must be 32 bytes');
    const derive = (info: string) => Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), info, 32));
    this.box = new AesGcmSecretBox(derive(ENCRYPTION_INFO), SEAL_TAG);
    this.hashKey = derive(KEYED_HASH_INFO);
  }

  /** The sealed form of `clear` (UTF-8); a fresh iv each time, so equal values seal differently. */
  seal(clear: string): string {
    return this.box.seal(clear);
  }

  /** The clear value of a `seal` result. Throws on an unknown tag or a value that fails authentication. */
  open(sealed: string): string {
    return this.box.open(sealed);
  }

  /** Deterministic keyed hash of `text` for `purpose`: equal inputs give equal hashes, and nothing else can be read from it. */
  keyedHash(purpose: KeyedHashPurpose, text: string): string {
    return `${HASH_TAG}.${createHmac('sha256', this.hashKey).update(`${purpose}\0${text}`).digest('base64url')}`;
  }
}

/**
 * The id number as compared for duplicates: document type and number, upper case, without
 * dashes, so `ab-1234` and `AB1234` of one document type are the same document.
 */
export function idNumberHashInput(idType: string, idNumber: string): string {
  return `${idType}:${idNumber.toUpperCase().replace(/-/g, '')}`;
}
