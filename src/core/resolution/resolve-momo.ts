import type { Catalog } from '../catalog/catalog';
import { err, ok, type Result } from '../shared/result';
import { countryOfPhone } from './dial-codes';
import type { AccountDirectory } from './resolution-ports';
import {
  MERCHANT_NUMBER_PATTERN, PHONE_NUMBER_PATTERN,
  type MomoResolution, type MomoResolutionType, type MomoResolveErrorCode,
} from './resolution';

/** Body of `POST /momo/resolve` after transport parsing (OpenAPI resolveMomo). */
export interface MomoResolveQuery {
  readonly type: MomoResolutionType;
  /** Paybill or till number, exactly 6 digits; required for paybill and till, ignored for momo. */
  readonly accountNumber?: string;
  /** Phone number with country code, `+` optional; required for momo, ignored for paybill and till. */
  readonly phoneNumber?: string;
}

export interface MomoResolveDeps {
  readonly catalog: Catalog;
  readonly accounts: AccountDirectory;
}

/**
 * Validates and resolves a paybill, till or mobile-money account (OpenAPI resolveMomo). An account
 * that does not resolve is a successful answer with `valid: false` and a `message` (docs/decisions.md § Errors: shapes per route family,
 * 11: a number ending 0000), as is a phone whose country code the catalog does not know, or whose
 * country has no mobile money. Every field is present; those that do not apply are '' or [].
 * Errors: `validation_error` (missing number for the type, not 6 digits, malformed phone),
 * `upstream_unavailable` (the directory could not answer).
 */
export async function resolveMomo(deps: MomoResolveDeps, query: MomoResolveQuery): Promise<Result<MomoResolution, MomoResolveErrorCode>> {
  if (query.type === 'momo') return resolveMobileWallet(deps, query.phoneNumber);
  const accountNumber = query.accountNumber;
  if (accountNumber === undefined || !MERCHANT_NUMBER_PATTERN.test(accountNumber)) {
    return err('validation_error', `accountNumber of exactly 6 digits is required for ${query.type}`, { field: 'accountNumber' });
  }
  const answer = (valid: boolean, accountName: string, message: string): MomoResolution =>
    ({ valid, type: query.type, accountName, accountNumber, phoneNumber: '', operators: [], message });
  const found = await deps.accounts.merchant(query.type, accountNumber);
  if (!found.ok) {
    if (found.code === 'upstream_unavailable') return err('upstream_unavailable', found.message);
    return ok(answer(false, '', `No ${query.type} account ${accountNumber} was found`));
  }
  return ok(answer(true, found.value.accountName, `${query.type} account resolved`));
}

async function resolveMobileWallet(deps: MomoResolveDeps, phone: string | undefined): Promise<Result<MomoResolution, MomoResolveErrorCode>> {
  if (phone === undefined || !PHONE_NUMBER_PATTERN.test(phone)) {
    return err('validation_error', 'phoneNumber with country code (e.g. 254712345678) is required for momo', { field: 'phoneNumber' });
  }
  // Answered without `+`: the form a payout's accountNumber takes (OpenAPI legacyPayout).
  const phoneNumber = phone.replace(/^\+/, '');
  const invalid = (message: string): Result<MomoResolution, never> =>
    ok({ valid: false, type: 'momo', accountName: '', accountNumber: '', phoneNumber, operators: [], message });

  const country = countryOfPhone(deps.catalog, phoneNumber);
  if (!country) return invalid('The country code of phoneNumber is not served');
  const corridor = deps.catalog.countries[country];
  const operators = corridor?.methods.MOMO?.codes ?? [];
  if (operators.length === 0) return invalid(`Mobile money is not offered in ${corridor?.name ?? country}`);

  const found = await deps.accounts.mobileWallet(country, phoneNumber);
  if (!found.ok) {
    if (found.code === 'upstream_unavailable') return err('upstream_unavailable', found.message);
    return invalid('No mobile-money wallet is registered to phoneNumber');
  }
  return ok({ valid: true, type: 'momo', accountName: '', accountNumber: '', phoneNumber, operators, message: `Mobile-money number in ${corridor?.name ?? country}` });
}
