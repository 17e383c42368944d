import type { Catalog } from '../catalog/catalog';
import { err, type Result } from '../shared/result';
import type { AccountDirectory } from './resolution-ports';
import {
  BANK_ACCOUNT_NUMBER_PATTERN,
  type BankAccountResolution, type BankResolutionCurrency, type BankResolutionPaymentType, type ResolveErrorCode,
} from './resolution';

/** Body of `POST /account/resolve` after transport parsing (OpenAPI resolveBankAccount; `bankCode` names the bank-code field). */
export interface BankAccountResolveQuery {
  /** 10 to 16 digits. */
  readonly accountNumber: string;
  readonly currency: BankResolutionCurrency;
  readonly paymentType: BankResolutionPaymentType;
  /** One of the catalog's resolution bank codes (docs/decisions.md § Corridor catalog). */
  readonly bankCode: string;
}

export interface BankAccountResolveDeps {
  readonly catalog: Catalog;
  readonly accounts: AccountDirectory;
}

/**
 * Resolves the holder of a Kenyan or Nigerian bank account (OpenAPI resolveBankAccount).
 * Errors: `validation_error` (account number not 10 to 16 digits, bank code not in the catalog's
 * resolution list), `account_not_found` (docs/decisions.md § Sandbox values: a number ending 0000), `upstream_unavailable`.
 */
export async function resolveBankAccount(
  deps: BankAccountResolveDeps,
  query: BankAccountResolveQuery,
): Promise<Result<BankAccountResolution, ResolveErrorCode>> {
  if (!BANK_ACCOUNT_NUMBER_PATTERN.test(query.accountNumber)) {
    return err('validation_error', 'accountNumber must be 10 to 16 digits', { field: 'accountNumber' });
  }
  if (!deps.catalog.resolutionBankCodes.includes(query.bankCode)) {
    return err('validation_error', `bankCode must be one of ${deps.catalog.resolutionBankCodes.join(', ')}`, { field: 'bankCode' });
  }
  const found = await deps.accounts.bankAccount({ accountNumber: query.accountNumber, currency: query.currency, bankCode: query.bankCode });
  if (!found.ok && found.code === 'account_not_found') {
    return err('account_not_found', `No account ${query.accountNumber} at bank ${query.bankCode}`);
  }
  return found;
}
