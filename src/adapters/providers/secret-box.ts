import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { SecretBox } from '../../core/webhooks/webhook-ports';

/**
 * AES-256-GCM sealing under one 32-byte key. Sealed form: `<tag>.` + base64(iv[12] | auth tag[16] |
 * ciphertext). `tag` names the key, so a later key rotation can tell which key sealed a value
 * (docs/decisions.md § Personal data and secrets): webhook signing secrets use `v1` (their stored
 * format since the start), personal data its own tag under a derived key.
 */
export class AesGcmSecretBox implements SecretBox {
  private readonly prefix: string;

  constructor(private readonly key: Buffer, tag = 'v1') {
    if (key.length !== 32) throw new Error('secret box key must be 32 bytes');
    this.prefix = `${tag}.`;
  }

  /** A new webhook signing secret: `whsec_` + base64 of 32 random bytes. */
  newSecret(): string {
    return `whsec_${randomBytes(32).toString('base64')}`;
  }

  /** `<tag>.` + base64(iv | auth tag | ciphertext) of `secret` (UTF-8), a fresh random iv each time. */
  seal(secret: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return `${this.prefix}${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64')}`;
  }

  /** Whether `sealed` carries this box's tag (the caller may hold several boxes during a key rotation). */
  owns(sealed: string): boolean {
    return sealed.startsWith(this.prefix);
  }

  /** The clear text of a value `seal` made. Throws on another tag, a forged value or a wrong key. */
  open(sealed: string): string {
    if (!this.owns(sealed)) throw new Error(`sealed value does not carry the ${this.prefix} tag`);
    const raw = Buffer.from(sealed.slice(this.prefix.length), 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }
}
