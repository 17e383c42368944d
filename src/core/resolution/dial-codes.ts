import type { Catalog, CountryCode } from '../catalog/catalog';

/**
 * The catalog country whose dialling code starts `digits` (a phone number with country code, no
 * `+`), or undefined. Dialling codes are prefix-free (the catalog file checks it), so at most one
 * matches.
 */
export function countryOfPhone(catalog: Catalog, digits: string): CountryCode | undefined {
  return (Object.keys(catalog.countries) as CountryCode[]).find((code) => {
    const dialCode = catalog.countries[code]?.dialCode;
    return dialCode !== undefined && digits.startsWith(dialCode);
  });
}
