import type { Pricing } from './pricing';

/**
 * One source's rate behind a price, as the source published it (docs/decisions.md § FX quotes:
 * pricing records): `rate` units of fiat per 1 stablecoin (decimal string), `at` the source's OWN
 * timestamp as an ISO 8601 string; null for the catalog, which has none.
 */
export interface PricingSource {
  readonly source: string;
  readonly rate: string;
  readonly at: string | null;
}

/**
 * Where a priced rate came from (docs/decisions.md § FX quotes: pricing records):
 * - `catalog`: the catalog's reference rate (sandbox tenants, or no live source configured);
 * - `live`: the median of the live sources used at the last refresh;
 * - `pin`: an operator's pinned mid (`pinId`), which won over the sources.
 * `mid` is before the spread; `spreadPercent` the corridor's spread in percent (`"0.5"`: 0.5 %);
 * `sources` the rates behind the mid (the catalog alone for `catalog`, none for `pin`).
 */
export interface RateBasis {
  readonly origin: 'catalog' | 'live' | 'pin';
  readonly mid: string;
  readonly spreadPercent: string;
  readonly sources: readonly PricingSource[];
  readonly pinId: string | null;
}

/** A priced rate (units of fiat per 1 stablecoin, spread applied, decimal string) with the basis behind it. */
export interface PricedRate {
  readonly rate: string;
  readonly basis: RateBasis;
}

/**
 * How a quote or a payment was priced, stored with it in the same transaction for audit and
 * disputes (docs/decisions.md § FX quotes: pricing records): the basis, the rate priced (spread
 * applied) and the fee (`payoutFee`, in the stablecoin, decimal string).
 */
export interface PricingRecord extends RateBasis {
  readonly rate: string;
  readonly fee: string;
}

/** The record of `pricing` priced from `basis`. Pure. */
export function pricingRecordOf(basis: RateBasis, pricing: Pricing): PricingRecord {
  return { ...basis, sources: [...basis.sources], rate: pricing.exchangeRate, fee: pricing.payoutFee };
}

/** The basis of a catalog rate: the catalog is the one source, no spread. Pure. */
export function catalogBasis(rate: string): RateBasis {
  return { origin: 'catalog', mid: rate, spreadPercent: '0', sources: [{ source: 'catalog', rate, at: null }], pinId: null };
}
