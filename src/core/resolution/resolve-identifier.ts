import type { Catalog } from '../catalog/catalog';
import { err, ok, type Result } from '../shared/result';
import type { IssuerDirectory } from './resolution-ports';
import { USERNAME_MAX_LENGTH, type IdentifierResolution, type ResolveErrorCode, type WalletNetwork } from './resolution';

/** Body of `POST /id/resolve` after transport parsing (OpenAPI resolveIdentifier; field names follow its response). */
export interface IdentifierResolveQuery {
  /** Username or wallet id at the issuer. */
  readonly username: string;
  /** Key of a catalog wallet issuer, e.g. `issuer_a`. */
  readonly issuer: string;
  readonly wallet_network: WalletNetwork;
}

export interface IdentifierResolveDeps {
  readonly catalog: Catalog;
  readonly issuers: IssuerDirectory;
  /** SERVICE_NAME (default PAYOUT): the memo `reference` is `<SERVICE>-FIAT` (OpenAPI resolveIdentifier). */
  readonly serviceName: string;
}

/**
 * Resolves a username at a wallet issuer into the stablecoin address that pays it (OpenAPI resolveIdentifier).
 * Country and currency come from the catalog's issuer entry; the address from the issuer
 * directory. Errors: `validation_error` (blank or over-long username, unknown issuer),
 * `account_not_found` (no such user; docs/decisions.md § Sandbox values: a username ending 0000), `upstream_unavailable`.
 */
export async function resolveIdentifier(
  deps: IdentifierResolveDeps,
  query: IdentifierResolveQuery,
): Promise<Result<IdentifierResolution, ResolveErrorCode>> {
  if (query.username.trim() === '' || query.username.length > USERNAME_MAX_LENGTH) {
    return err('validation_error', `username must be 1 to ${USERNAME_MAX_LENGTH} characters, not blank`, { field: 'username' });
  }
  const issuer = deps.catalog.walletIssuers.find((i) => i.key === query.issuer);
  if (!issuer) {
    return err('validation_error', `issuer must be one of ${deps.catalog.walletIssuers.map((i) => i.key).join(', ')}`, { field: 'issuer' });
  }
  const found = await deps.issuers.walletAddress({ issuer: issuer.key, username: query.username, network: query.wallet_network });
  if (!found.ok) {
    return found.code === 'account_not_found'
      ? err('account_not_found', `No user ${query.username} at ${issuer.key}`)
      : found;
  }
  return ok({
    status: 'Successful',
    username: query.username,
    issuer: issuer.key,
    currency: issuer.currency,
    wallet_address: found.value.walletAddress,
    wallet_network: query.wallet_network,
    country: issuer.country,
    reference: `${deps.serviceName}-FIAT`,
  });
}
