import type { IdType } from '../../../core/customers/customer';

/**
 * Smile ID's `id_type` for each of our ID types, per country, for Enhanced KYC (lookup by ID
 * number): the types Smile ID lists at
 * https://docs.usesmileid.com/supported-id-types/for-individuals-kyc/backed-by-id-authority
 * for the catalog's countries (Kenya, Nigeria, Ghana, South Africa, Uganda). Zambia's listed types
 * (TPIN, BANK_ACCOUNT) are not identity documents we accept. Côte d'Ivoire is listed, but its
 * `id_type` values could not be read from the published pages, so it is not enabled; Tanzania,
 * Senegal, Burkina Faso, Benin, Cameroon and Ethiopia are not listed (docs/providers.md § Smile ID).
 */
export const SMILE_ID_TYPES: Readonly<Record<string, Partial<Readonly<Record<IdType, string>>>>> = {
  KE: { NATIONAL_ID: 'NATIONAL_ID', NATIONAL_ID_NO_PHOTO: 'NATIONAL_ID_NO_PHOTO', PASSPORT: 'PASSPORT', ALIEN_CARD: 'ALIEN_CARD' },
  NG: { BVN: 'BVN', NIN_V2: 'NIN_V2' },
  GH: { GHANA_CARD: 'GHANA_CARD', PASSPORT: 'PASSPORT' },
  ZA: { NATIONAL_ID: 'NATIONAL_ID', NATIONAL_ID_NO_PHOTO: 'NATIONAL_ID_NO_PHOTO' },
  UG: { NATIONAL_ID_NO_PHOTO: 'NATIONAL_ID_NO_PHOTO' },
};

/** Countries Smile ID can check for us (ISO 3166-1 alpha-2). */
export const SMILE_ID_COUNTRIES: ReadonlySet<string> = new Set(Object.keys(SMILE_ID_TYPES));

/** Smile ID's `id_type` for `idType` in `country`, or undefined when it has none. */
export function smileIdTypeFor(country: string, idType: IdType): string | undefined {
  const types = Object.hasOwn(SMILE_ID_TYPES, country) ? SMILE_ID_TYPES[country] : undefined;
  return types && Object.hasOwn(types, idType) ? types[idType] : undefined;
}

/** The ID types accepted in `country`, for a reason text. */
export function idTypesIn(country: string): string[] {
  return Object.keys((Object.hasOwn(SMILE_ID_TYPES, country) ? SMILE_ID_TYPES[country] : undefined) ?? {});
}
