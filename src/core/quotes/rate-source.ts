import type { Result } from '../shared/result';
import type { FiatCurrency, Stablecoin } from '../shared/money';

/** Why a rate could not be had: the pair is not served, or the source is down (docs/decisions.md § Errors: shapes per route family, shape D). */
export type RateSourceError = 'unsupported_pair' | 'rates_unavailable';

/**
 * Port: where exchange rates come from (docs/decisions.md § FX quotes and the quote lock). The default adapter serves the catalog's
 * reference rates so the service runs offline and deterministically.
 */
export interface RateSource {
  /** Units of `fiat` per 1 `stablecoin`, as a positive decimal string. */
  rate(fiat: FiatCurrency, stablecoin: Stablecoin): Promise<Result<string, RateSourceError>>;
}
