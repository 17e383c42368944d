import type { CountryCode } from '../../../core/catalog/catalog';

/**
 * The `X-Target-Environment` values MTN documents (MTN-Group/MoMoAPIs_Java_sdk `TargetEnvironment`):
 * `sandbox` plus one production environment per MTN operating country.
 */
export const MTN_MOMO_TARGET_ENVIRONMENTS = [
  'sandbox', 'mtnuganda', 'mtnghana', 'mtnivorycoast', 'mtnzambia', 'mtncameroon', 'mtnbenin', 'mtncongo',
  'mtnswaziland', 'mtnguineaconakry', 'mtnsouthafrica', 'mtnliberia',
] as const;
export type MtnMomoTargetEnvironment = (typeof MTN_MOMO_TARGET_ENVIRONMENTS)[number];

/** A currency this adapter sends: the catalog's MTN corridor currencies, and EUR, the sandbox's only one. */
export type MtnMomoCurrency = 'UGX' | 'GHS' | 'ZMW' | 'XOF' | 'XAF' | 'EUR';

/**
 * One MTN corridor of the catalog (docs/decisions.md § Corridor catalog: MOMO with paymentCode
 * MTN): the country, its target environment, its currency and the dial code its MSISDNs start with.
 */
export interface MtnMomoMarket {
  readonly country: CountryCode;
  readonly targetEnvironment: Exclude<MtnMomoTargetEnvironment, 'sandbox'>;
  readonly currency: MtnMomoCurrency;
  readonly dialCode: string;
}

/**
 * The catalog's MTN corridors (data/corridors.json: UG, GH, ZM, CI, BJ, CM). Environments without a
 * catalog corridor (Congo, Eswatini, Guinea, South Africa, Liberia) serve no payment until the
 * catalog offers MTN there.
 */
export const MTN_MOMO_MARKETS: readonly MtnMomoMarket[] = [
  { country: 'UG', targetEnvironment: 'mtnuganda', currency: 'UGX', dialCode: '256' },
  { country: 'GH', targetEnvironment: 'mtnghana', currency: 'GHS', dialCode: '233' },
  { country: 'ZM', targetEnvironment: 'mtnzambia', currency: 'ZMW', dialCode: '260' },
  { country: 'CI', targetEnvironment: 'mtnivorycoast', currency: 'XOF', dialCode: '225' },
  { country: 'BJ', targetEnvironment: 'mtnbenin', currency: 'XOF', dialCode: '229' },
  { country: 'CM', targetEnvironment: 'mtncameroon', currency: 'XAF', dialCode: '237' },
];

/**
 * Digits after the point per currency we send: ISO 4217. MTN documents `amount` only as a string
 * (MoMoAPIs_Javascript_sdk docs/disbursements/transfer) and no per-currency precision, so we never
 * send more digits than ISO 4217 allows and refuse an amount that would need them.
 */
export const MTN_MOMO_CURRENCY_SCALE: Record<MtnMomoCurrency, number> = { UGX: 0, XOF: 0, XAF: 0, GHS: 2, ZMW: 2, EUR: 2 };

/**
 * The markets one deployment serves: the one of its target environment, or every catalog MTN market
 * in the sandbox (whose single currency is configured, never assumed: MTN_MOMO_SANDBOX_CURRENCY).
 */
export function marketsServed(targetEnvironment: MtnMomoTargetEnvironment): readonly MtnMomoMarket[] {
  if (targetEnvironment === 'sandbox') return MTN_MOMO_MARKETS;
  return MTN_MOMO_MARKETS.filter((m) => m.targetEnvironment === targetEnvironment);
}
