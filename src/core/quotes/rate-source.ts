import type { CountryCode, PaymentMethod } from '../catalog/catalog';
import type { Result } from '../shared/result';
import type { FiatCurrency, Stablecoin } from '../shared/money';
import type { PricedRate } from './pricing-record';

/**
 * Why a rate could not be had (docs/decisions.md § Errors: shapes per route family, and § FX quotes:
 * live rates): the pair is not served (`unsupported_pair`), or it has no trustworthy live rate now
 * (`rate_unavailable`: too few fresh sources, or suspended by the jump guard; `details.retryAfterS`
 * says how soon to ask again).
 */
export type RateSourceError = 'unsupported_pair' | 'rate_unavailable';

/** Who asks and for which corridor: the tenant picks sandbox or live rates, the corridor the spread. */
export interface RateContext {
  readonly tenantId: string;
  readonly paymentMethod: PaymentMethod;
  /** Country of the payout, when known (a quote may leave it out). */
  readonly country?: CountryCode;
}

/**
 * Port: where exchange rates come from (docs/decisions.md § FX quotes and the quote lock). The
 * catalog adapter serves the catalog's reference rates (sandbox tenants, and every tenant when no
 * live source is configured); the live adapter answers from an in-memory rate book refreshed in the
 * background, so asking never waits on a source.
 */
export interface RateSource {
  /**
   * Units of `fiat` per 1 `stablecoin` for `context`, spread included, as a positive decimal string
   * (`rate`), with the basis it was priced from (`basis`: mid, spread, sources), which quotes and
   * payments store (docs/decisions.md § FX quotes: pricing records).
   */
  rate(fiat: FiatCurrency, stablecoin: Stablecoin, context: RateContext): Promise<Result<PricedRate, RateSourceError>>;
}
