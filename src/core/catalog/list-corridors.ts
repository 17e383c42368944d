import { MONEY_OUT_COUNTRIES, PAYMENT_METHODS, type Catalog, type MoneyOutCountry, type PaymentMethod } from './catalog';
import { formatAmount, STABLECOINS, type FiatCurrency, type Stablecoin } from '../shared/money';
import { err, ok, type Result } from '../shared/result';
import type { RoutingDeps } from '../routing/provider-routing';

/**
 * Why a corridor is not payable now, as the code a money-out to it would be refused with
 * (docs/api.md § Errors): `corridor_not_available` (no provider is configured for it: permanent
 * until the deployment changes), `provider_unavailable` (its providers are failing: try later).
 */
export const CORRIDOR_UNAVAILABLE_CODES = ['corridor_not_available', 'provider_unavailable'] as const;
export type CorridorUnavailableCode = (typeof CORRIDOR_UNAVAILABLE_CODES)[number];

/**
 * One corridor we pay (OpenAPI listCorridors; docs/api.md § Corridors): a country, a method and one
 * operator or bank code, its amount limits (decimal strings in `currency`, at its scale,
 * inclusive), the stablecoins that fund it, and whether the caller's environment can pay it now.
 */
export interface CorridorView {
  readonly country: MoneyOutCountry;
  readonly countryName: string;
  /** ISO 4217 currency the recipient is paid in. */
  readonly currency: FiatCurrency;
  readonly paymentMethod: PaymentMethod;
  /** The operator code (MOMO, PAYBILL, TILL) or bank code (BANK) to send as `paymentCode`. */
  readonly paymentCode: string;
  /** The bank's name for a BANK corridor; null for the others. */
  readonly bankName: string | null;
  readonly minAmount: string;
  readonly maxAmount: string;
  /** Stablecoins a money-out to it may be funded with. */
  readonly sourceCurrencies: readonly Stablecoin[];
  /** Whether a money-out to it is taken now for the caller's environment (sandbox: the sandbox provider pays every corridor). */
  readonly payable: boolean;
  /** Null when payable; else the code a money-out to it would be refused with. */
  readonly unavailableCode: CorridorUnavailableCode | null;
}

/** Optional narrowing of `listCorridors`: one country (ISO 3166-1 alpha-2), one method. */
export interface CorridorFilter {
  readonly country?: string;
  readonly paymentMethod?: string;
}

/** What listing corridors reads: the catalog, and routing for the caller's environment. */
export type CorridorDeps = RoutingDeps & { readonly catalog: Catalog };

/**
 * Every corridor the catalog offers a money-out in (OpenAPI listCorridors, GraphQL `corridors`;
 * docs/api.md § Corridors), in catalog order (country, then method, then code), each with whether
 * it is payable now for the tenant's environment: the answer routing gives a money-out to it
 * (docs/decisions.md § Payout providers: routing and failover), so the two never disagree.
 * Errors: `validation_error` (an unknown country or method in the filter; `details.field` names it).
 */
export async function listCorridors(deps: CorridorDeps, tenantId: string, filter: CorridorFilter = {}): Promise<Result<CorridorView[], 'validation_error'>> {
  if (filter.country !== undefined && !(MONEY_OUT_COUNTRIES as readonly string[]).includes(filter.country)) {
    return err('validation_error', `country must be one of ${MONEY_OUT_COUNTRIES.join(', ')}`, { field: 'country' });
  }
  if (filter.paymentMethod !== undefined && !(PAYMENT_METHODS as readonly string[]).includes(filter.paymentMethod)) {
    return err('validation_error', `paymentMethod must be one of ${PAYMENT_METHODS.join(', ')}`, { field: 'paymentMethod' });
  }
  const environment = await deps.environments.environmentOf(tenantId);
  const corridors: CorridorView[] = [];
  for (const country of MONEY_OUT_COUNTRIES) {
    const offered = deps.catalog.countries[country];
    if (!offered || (filter.country !== undefined && filter.country !== country)) continue;
    for (const paymentMethod of PAYMENT_METHODS) {
      const offer = offered.methods[paymentMethod];
      if (!offer || (filter.paymentMethod !== undefined && filter.paymentMethod !== paymentMethod)) continue;
      for (const paymentCode of offer.codes) {
        const route = environment ? deps.routing.payoutProvidersFor(environment, { country, paymentMethod, paymentCode }) : undefined;
        const unavailableCode = route === undefined || route.kind === 'unavailable' ? 'provider_unavailable'
          : route.kind === 'not_served' ? 'corridor_not_available' : null;
        corridors.push({
          country, countryName: offered.name, currency: offered.currency, paymentMethod, paymentCode,
          bankName: paymentMethod === 'BANK' ? offered.banks.find((b) => b.bankCode === paymentCode)?.bankName ?? null : null,
          minAmount: formatAmount(offer.min, offered.currency), maxAmount: formatAmount(offer.max, offered.currency),
          sourceCurrencies: STABLECOINS, payable: unavailableCode === null, unavailableCode,
        });
      }
    }
  }
  return ok(corridors);
}
