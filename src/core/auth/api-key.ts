import { err, ok, type Result } from '../shared/result';

/** Key scopes (docs/decisions.md § Authentication, tenants and keys): `issuer` keys act for one tenant; `admin` keys manage tenants and keys. */
export const API_KEY_SCOPES = ['issuer', 'admin'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/**
 * A stored API key (docs/decisions.md § Authentication, tenants and keys). Only `secretHash` (hex SHA-256 of the whole key) is kept;
 * `lookup` is the first 12 characters of the key's random part, indexed to find the row.
 * Admin keys have no tenant.
 */
export class ApiKey {
  id!: string;
  tenantId!: string | null;
  scope!: ApiKeyScope;
  lookup!: string;
  secretHash!: string;
  label!: string;
  createdAt!: Date;
  revokedAt!: Date | null;

  constructor(props: { [K in keyof ApiKey]: ApiKey[K] }) {
    Object.assign(this, props);
  }
}

/** Who is calling, once authenticated. `tenantId` is null for admin keys. */
export interface Principal {
  readonly keyId: string;
  readonly tenantId: string | null;
  readonly scope: ApiKeyScope;
}

/** `sk_<sandbox|live>_<32 to 64 letters and digits>` (docs/decisions.md § Authentication, tenants and keys). */
export const API_KEY_PATTERN = /^sk_(sandbox|live)_([A-Za-z0-9]{32,64})$/;

/** The lookup part of a well-formed key, or undefined when the key is malformed. Pure. */
export function lookupOf(apiKey: string): string | undefined {
  return API_KEY_PATTERN.exec(apiKey)?.[2]?.slice(0, 12);
}

/**
 * Port: stored keys by lookup prefix. `secretHash` is the hash of the whole key presented: a
 * caching reader keys its entries by it, so only the exact key can be answered from memory and a
 * wrong secret costs the same store query as an unknown prefix (docs/decisions.md § Authentication,
 * tenants and keys). Readers without a cache ignore it.
 */
export interface ApiKeyReader {
  findByLookup(lookup: string, secretHash: string): Promise<ApiKey | undefined>;
}

/** Port: one-way hashing of key secrets and constant-time comparison of hashes. */
export interface SecretHasher {
  hash(secret: string): string;
  equal(a: string, b: string): boolean;
}

/**
 * True when a key's scope and tenant agree: an admin key has no tenant, an issuer key has one
 * (docs/decisions.md § Authentication, tenants and keys). Pure.
 */
export const isConsistentKey = (key: Pick<ApiKey, 'scope' | 'tenantId'>): boolean => (key.scope === 'admin') === (key.tenantId === null);

/**
 * Compared with when no stored key has the presented lookup, so an unknown prefix does the same
 * work (hash, store query, constant-time comparison) as a known one with a wrong secret. Never
 * equal to a real hash: it is not hex.
 */
const NO_KEY_HASH = 'x'.repeat(64);

/**
 * Authenticates a bearer key (docs/decisions.md § Authentication, tenants and keys): finds it by
 * its lookup prefix and compares hashes in constant time. Every well-formed key is hashed, looked
 * up and compared, found or not, so the time taken tells nothing about which prefixes exist.
 * Errors: `unauthorized` for a malformed, unknown or revoked key (one message for all, so the
 * answer is no oracle), and for a key whose scope and tenant disagree (an admin key bound to a
 * tenant gets no power at all, defence in depth behind the database's check).
 */
export async function authenticate(
  deps: { keys: ApiKeyReader; hasher: SecretHasher },
  apiKey: string,
): Promise<Result<Principal, 'unauthorized'>> {
  const denied = err('unauthorized', 'Invalid or revoked API key');
  const lookup = lookupOf(apiKey);
  if (!lookup) return denied;
  const presented = deps.hasher.hash(apiKey);
  const stored = await deps.keys.findByLookup(lookup, presented);
  const matches = deps.hasher.equal(stored?.secretHash ?? NO_KEY_HASH, presented);
  if (!stored || !matches || stored.revokedAt !== null || !isConsistentKey(stored)) return denied;
  return ok({ keyId: stored.id, tenantId: stored.tenantId, scope: stored.scope });
}
