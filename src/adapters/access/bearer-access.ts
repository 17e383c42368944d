import type { Principal } from '../../core/auth/api-key';
import { err, ok, type Result } from '../../core/shared/result';
import type { AuthFailures } from './auth-failures';
import type { RateLimits } from './rate-limits';

/** Resolves a bearer key to a principal (the core's `authenticate`). */
export type Authenticator = (apiKey: string) => Promise<Result<Principal, 'unauthorized'>>;

/**
 * What a caller must be: any valid key, an admin key, or a key that belongs to a tenant (issuer
 * keys; REST's `issuer` routes, GraphQL and graphql-ws).
 */
export type AccessNeed = 'any' | 'admin' | 'tenant';

/** Why a caller was refused (a closed set; each transport answers it through ACCESS_REFUSALS). */
export type AccessRefusalCode = 'unauthorized' | 'forbidden' | 'auth_throttled';

/** Where the key came from: an HTTP `Authorization` header (`Bearer <key>`), or graphql-ws's `connection_init` payload. */
export type Credential = { readonly header: string | undefined } | { readonly connectionParam: unknown };

/**
 * How each transport answers a refusal (docs/decisions.md § Authentication, tenants and keys):
 * HTTP status and wire code (shape A on REST, `extensions.code` on GraphQL) and the graphql-ws
 * close code. A throttled address is told `rate_limited`, like a spent key budget.
 */
export const ACCESS_REFUSALS: Readonly<Record<AccessRefusalCode, {
  readonly status: 401 | 403 | 429; readonly code: 'unauthorized' | 'forbidden' | 'rate_limited'; readonly closeCode: 4401 | 4403 | 4429;
}>> = {
  unauthorized: { status: 401, code: 'unauthorized', closeCode: 4401 },
  forbidden: { status: 403, code: 'forbidden', closeCode: 4403 },
  auth_throttled: { status: 429, code: 'rate_limited', closeCode: 4429 },
};

const NEED_MESSAGES: Readonly<Record<Exclude<AccessNeed, 'any'>, string>> = {
  admin: 'This operation needs an admin-scoped key',
  tenant: 'This operation needs an issuer key that belongs to a tenant',
};

/**
 * The one authentication path of REST, GraphQL over HTTP and graphql-ws, and the rate-limit
 * decision they share (docs/decisions.md § Authentication, tenants and keys; § Rate limits and
 * abuse limits).
 */
export class BearerAccess {
  constructor(private readonly deps: { authenticate: Authenticator; failures: AuthFailures; rateLimits: RateLimits }) {}

  /** Per-key request limits; `consume(principal, points)` after a successful authentication. */
  get rateLimits(): RateLimits {
    return this.deps.rateLimits;
  }

  /**
   * Authenticates `credential` from `clientAddress` for `need`. Errors: `auth_throttled` (with
   * `details.retryAfterS`, seconds) when the address has spent its failed-authentication budget,
   * checked before anything else; `unauthorized` for a missing, malformed, unknown or revoked key
   * (counted as a failure of the address); `forbidden` for a valid key of the wrong kind.
   */
  async authenticateBearer(credential: Credential, clientAddress: string, need: AccessNeed): Promise<Result<Principal, AccessRefusalCode>> {
    const retryAfterS = await this.deps.failures.retryAfterS(clientAddress);
    if (retryAfterS !== undefined) {
      return err('auth_throttled', `Too many failed authentications from this address; retry after ${retryAfterS} s`, { retryAfterS });
    }
    const key = keyOf(credential);
    const auth = key ? await this.deps.authenticate(key) : err('unauthorized', missingMessage(credential));
    if (!auth.ok) {
      await this.deps.failures.record(clientAddress);
      return err('unauthorized', auth.message);
    }
    const principal = auth.value;
    if (need === 'admin' && principal.scope !== 'admin') return err('forbidden', NEED_MESSAGES.admin);
    if (need === 'tenant' && principal.tenantId === null) return err('forbidden', NEED_MESSAGES.tenant);
    return ok(principal);
  }
}

/** The key of `Authorization: Bearer <key>`, or of a connection parameter (`<key>` or `Bearer <key>`). */
function keyOf(credential: Credential): string | undefined {
  if ('header' in credential) return /^Bearer\s+(\S+)\s*$/i.exec(credential.header ?? '')?.[1];
  const raw = credential.connectionParam;
  return typeof raw === 'string' ? /^(?:Bearer\s+)?(\S+)\s*$/i.exec(raw)?.[1] : undefined;
}

function missingMessage(credential: Credential): string {
  return 'header' in credential
    ? 'Authorization: Bearer <API_KEY> header is required'
    : 'connection_init must carry {"authorization": "<API_KEY>"}';
}
