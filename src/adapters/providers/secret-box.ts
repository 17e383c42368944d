import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { SecretBox } from '../../core/webhooks/webhook-ports';

/**
 * Webhook signing secrets sealed with AES-256-GCM (DESIGN.md 8). Sealed form:
 * `v1.` + base64(iv[12] | tag[16] | ciphertext). `key` is 32 bytes from configuration.
 */
export class AesGcmSecretBox implements SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('webhook secret key must be 32 bytes');
  }

  newSecret(): string {
    return `whsec_${randomBytes(32).toString('base64')}`;
  }

  seal(secret: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return `v1.${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64')}`;
  }

  open(sealed: string): string {
    const raw = Buffer.from(sealed.replace(/^v1\./, ''), 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }
}
