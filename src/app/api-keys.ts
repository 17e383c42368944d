import { randomBytes } from 'node:crypto';
import { ApiKey, lookupOf, type ApiKeyScope, type SecretHasher } from '../core/auth/api-key';
import type { IdGenerator } from '../core/shared/clock';

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A new random key `sk_<env>_<40 base62 chars>` (about 238 bits), shown once and never stored (docs/decisions.md § Authentication, tenants and keys). */
export function generateApiKey(environment: 'sandbox' | 'live'): string {
  // 248 is the largest multiple of 62 under 256: rejecting bytes above it keeps the alphabet uniform.
  let random = '';
  while (random.length < 40) {
    for (const byte of randomBytes(64)) if (byte < 248 && random.length < 40) random += BASE62[byte % 62];
  }
  return `sk_${environment}_${random}`;
}

/** The stored form of `apiKey`: lookup prefix and hash only. Throws on a malformed key (a bug here). */
export function storedKey(
  apiKey: string,
  scope: ApiKeyScope,
  tenantId: string | null,
  label: string,
  deps: { ids: IdGenerator; hasher: SecretHasher; now: Date },
): ApiKey {
  const lookup = lookupOf(apiKey);
  if (!lookup) throw new Error('malformed API key');
  return new ApiKey({
    id: deps.ids.next('key'), tenantId, scope, lookup, secretHash: deps.hasher.hash(apiKey), label,
    createdAt: deps.now, revokedAt: null,
  });
}
