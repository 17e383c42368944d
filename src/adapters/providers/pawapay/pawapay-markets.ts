import type { CountryCode } from '../../../core/catalog/catalog';

/** A currency this adapter sends: the catalog's currencies of the corridors pawaPay serves. */
export type PawapayCurrency = 'UGX' | 'GHS' | 'TZS' | 'ZMW' | 'XOF' | 'XAF';

/**
 * One catalog country pawaPay pays mobile money in: its pawaPay `country` (ISO 3166-1 alpha-3, as
 * pawaPay's status answers carry it), its currency, the dial code its MSISDNs start with, and our
 * operator code (`paymentCode`) → pawaPay `provider` code. Provider codes from pawaPay's providers
 * page (https://docs.pawapay.io/v2/docs/providers) and sandbox numbers page
 * (https://docs.pawapay.io/v2/docs/test_numbers). Operators pawaPay lists that the catalog does
 * not offer (e.g. VODACOM_TZA, HALOTEL_TZA, FREE_SEN, AIRTELTIGO_GHA, MPESA_ETH) are not mapped, and
 * catalog operators pawaPay does not list (Airtel Kenya, Moov Côte d'Ivoire) are not either.
 */
export interface PawapayMarket {
  readonly country: CountryCode;
  readonly pawapayCountry: string;
  readonly currency: PawapayCurrency;
  readonly dialCode: string;
  readonly providers: Readonly<Record<string, string>>;
}

/** The catalog corridors (data/corridors.json, MOMO) pawaPay serves. */
export const PAWAPAY_MARKETS: readonly PawapayMarket[] = [
  { country: 'UG', pawapayCountry: 'UGA', currency: 'UGX', dialCode: '256', providers: { MTN: 'MTN_MOMO_UGA', AIRTEL: 'AIRTEL_OAPI_UGA' } },
  { country: 'GH', pawapayCountry: 'GHA', currency: 'GHS', dialCode: '233', providers: { MTN: 'MTN_MOMO_GHA' } },
  { country: 'TZ', pawapayCountry: 'TZA', currency: 'TZS', dialCode: '255', providers: { AIRTEL: 'AIRTEL_TZA', TIGO: 'TIGO_TZA' } },
  { country: 'ZM', pawapayCountry: 'ZMB', currency: 'ZMW', dialCode: '260', providers: { MTN: 'MTN_MOMO_ZMB', AIRTEL: 'AIRTEL_OAPI_ZMB' } },
  { country: 'CI', pawapayCountry: 'CIV', currency: 'XOF', dialCode: '225', providers: { MTN: 'MTN_MOMO_CIV', ORANGE: 'ORANGE_CIV', WAVE: 'WAVE_CIV' } },
  { country: 'SN', pawapayCountry: 'SEN', currency: 'XOF', dialCode: '221', providers: { ORANGE: 'ORANGE_SEN', WAVE: 'WAVE_SEN' } },
  { country: 'BF', pawapayCountry: 'BFA', currency: 'XOF', dialCode: '226', providers: { ORANGE: 'ORANGE_BFA', MOOV: 'MOOV_BFA' } },
  { country: 'BJ', pawapayCountry: 'BEN', currency: 'XOF', dialCode: '229', providers: { MTN: 'MTN_MOMO_BEN', MOOV: 'MOOV_BEN' } },
  { country: 'CM', pawapayCountry: 'CMR', currency: 'XAF', dialCode: '237', providers: { MTN: 'MTN_MOMO_CMR', ORANGE: 'ORANGE_CMR' } },
];

/**
 * Digits after the point we may send per currency: ISO 4217 at most. pawaPay takes "between zero
 * and two decimal places ... depending on what the specific provider supports" (initiate payout
 * page, `amount`); a provider that takes fewer answers REJECTED INVALID_AMOUNT, never rounds.
 */
export const PAWAPAY_CURRENCY_SCALE: Record<PawapayCurrency, number> = { UGX: 0, XOF: 0, XAF: 0, GHS: 2, ZMW: 2, TZS: 2 };
