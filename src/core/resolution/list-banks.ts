import type { BankEntry, Catalog } from '../catalog/catalog';
import { err, ok, type Result } from '../shared/result';
import { BANK_LIST_COUNTRIES, type BankListCountry } from './resolution';
import type { LiveAccountDirectory } from './resolution-ports';

/**
 * Banks of `country` (OpenAPI listBanks; docs/decisions.md § Corridor catalog): from `live`, the
 * live directory, when given (a live tenant's list: the banks its provider pays), else, or when
 * that directory cannot answer, from the catalog in catalog order.
 * Errors: `validation_error` when the country is not one the bank list serves (NG, ZA).
 */
export async function listBanks(
  catalog: Catalog, country: string, live?: LiveAccountDirectory,
): Promise<Result<readonly BankEntry[], 'validation_error'>> {
  if (!(BANK_LIST_COUNTRIES as readonly string[]).includes(country)) {
    return err('validation_error', `country must be one of ${BANK_LIST_COUNTRIES.join(', ')}`, { field: 'country' });
  }
  const listed = live ? await live.banks(country as BankListCountry) : undefined;
  if (listed?.ok) return listed;
  return ok(catalog.countries[country as BankListCountry]?.banks ?? []);
}
