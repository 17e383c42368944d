import type { RateBook } from '../../../core/quotes/rate-book';
import type { RateContext, RateSource } from '../../../core/quotes/rate-source';
import { applySpread, spreadFor, type SpreadTable } from '../../../core/quotes/spread';
import type { TenantEnvironments } from '../../../core/routing/provider-routing';
import type { Clock } from '../../../core/shared/clock';
import type { FiatCurrency, Stablecoin } from '../../../core/shared/money';
import { err, ok } from '../../../core/shared/result';

/**
 * RateSource answering from the in-memory rate book (docs/decisions.md § FX quotes: live rates): the
 * pair's mid (an operator's pin in force wins) with the corridor's spread applied, and the basis of
 * that price: mid, spread, the sources used or the pin (docs/decisions.md § FX quotes: pricing records). Never waits on a source: a pair without a priced
 * mid (awaiting its first refresh, suspended by the jump guard, or short of its quorum) is
 * `rate_unavailable` with `retryAfterS`, the refresh interval in whole seconds.
 */
export class BookRateSource implements RateSource {
  constructor(private readonly book: RateBook, private readonly spreads: () => SpreadTable, private readonly retryAfterS: number, private readonly clock: Clock) {}

  async rate(fiat: FiatCurrency, stablecoin: Stablecoin, context: RateContext) {
    const pair = { fiat, stablecoin };
    if (!this.book.quotes(pair)) return err('unsupported_pair' as const, `No rate for ${fiat}/${stablecoin}`);
    const basis = this.book.basis(pair, this.clock.now());
    if (basis === undefined) {
      return err('rate_unavailable' as const, `No live exchange rate for ${fiat}/${stablecoin} now; retry later`, { retryAfterS: this.retryAfterS });
    }
    const spreadPercent = spreadFor(this.spreads(), context.paymentMethod, context.country);
    const sources = basis.sources.map((s) => ({ source: s.source, rate: s.rate, at: s.at.toISOString() }));
    return ok({ rate: applySpread(basis.mid, spreadPercent), basis: { ...basis, spreadPercent, sources } });
  }
}

/**
 * RateSource choosing by the tenant's environment (docs/decisions.md § Sandbox values): sandbox
 * tenants (and unknown ones) keep `sandbox` (the catalog's static rates, deterministic), live tenants
 * get `live`. The environment comes from the cached tenant settings routing already reads.
 */
export class EnvironmentRateSource implements RateSource {
  constructor(private readonly environments: TenantEnvironments, private readonly sandbox: RateSource, private readonly live: RateSource) {}

  async rate(fiat: FiatCurrency, stablecoin: Stablecoin, context: RateContext) {
    const environment = await this.environments.environmentOf(context.tenantId);
    return (environment === 'live' ? this.live : this.sandbox).rate(fiat, stablecoin, context);
  }
}
