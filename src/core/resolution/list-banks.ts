import type { BankEntry, Catalog } from '../catalog/catalog';
import { err, ok, type Result } from '../shared/result';
import { BANK_LIST_COUNTRIES, type BankListCountry } from './resolution';

/**
 * Banks of `country` from the catalog, in catalog order (OpenAPI listBanks; docs/decisions.md § Corridor catalog).
 * Errors: `validation_error` when the country is not one the bank list serves (NG, ZA).
 */
export function listBanks(catalog: Catalog, country: string): Result<readonly BankEntry[], 'validation_error'> {
  if (!(BANK_LIST_COUNTRIES as readonly string[]).includes(country)) {
    return err('validation_error', `country must be one of ${BANK_LIST_COUNTRIES.join(', ')}`, { field: 'country' });
  }
  return ok(catalog.countries[country as BankListCountry]?.banks ?? []);
}
