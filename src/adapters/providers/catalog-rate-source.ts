import type { Catalog } from '../../core/catalog/catalog';
import { catalogBasis } from '../../core/quotes/pricing-record';
import type { RateSource } from '../../core/quotes/rate-source';
import type { FiatCurrency, Stablecoin } from '../../core/shared/money';
import { err, ok } from '../../core/shared/result';

/** RateSource serving the catalog's reference rates (docs/decisions.md § FX quotes and the quote lock): offline and deterministic; the basis names the catalog as the one source. */
export class CatalogRateSource implements RateSource {
  constructor(private readonly catalog: Catalog) {}

  async rate(fiat: FiatCurrency, stablecoin: Stablecoin) {
    const rate = this.catalog.rates[fiat]?.[stablecoin];
    return rate ? ok({ rate, basis: catalogBasis(rate) }) : err('unsupported_pair' as const, `No rate for ${fiat}/${stablecoin}`);
  }
}
