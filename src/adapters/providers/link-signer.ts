import { createHmac, hkdfSync } from 'node:crypto';
import type { LinkSigner } from '../../core/transfers/transfer-request';

/**
 * Deeplink tokens: base64url(JSON claims) + '.' + base64url(HMAC-SHA256). The key is derived
 * (HKDF) from the service's 32-byte secret key, so no extra secret has to be configured.
 */
export class HmacLinkSigner implements LinkSigner {
  private readonly key: Buffer;

  constructor(masterKey: Buffer) {
    this.key = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'transfer-request-link', 32));
  }

  sign(claims: Record<string, string | number>): string {
    const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return `${body}.${createHmac('sha256', this.key).update(body).digest('base64url')}`;
  }

  /** The claims of a token this signer made, or undefined when forged or malformed. */
  verify(token: string): Record<string, unknown> | undefined {
    const [body, signature] = token.split('.');
    if (!body || !signature || createHmac('sha256', this.key).update(body).digest('base64url') !== signature) return undefined;
    return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<string, unknown>;
  }
}
