import { paysOutIn, type Blockchain, type Catalog, type CountryCode, type FxSourceCurrency, type PaymentMethod } from '../catalog/catalog';
import type { Clock, IdGenerator } from '../shared/clock';
import { Decimal, parseAmount, scaleOf, type Stablecoin } from '../shared/money';
import { err, ok, type Result } from '../shared/result';
import { price, type IssuerFeeOption } from './pricing';
import { Quote, type QuoteRepository } from './quote';
import type { RateSource } from './rate-source';
import { pricingRecordOf } from './pricing-record';

/** Closed set of expected failures of an FX quote (OpenAPI convertFx; docs/decisions.md § Errors: shapes per route family, shape D). */
export type FxQuoteErrorCode = 'validation_error' | 'unsupported_pair' | 'rate_unavailable';

/** Query of `GET /fx/convert` after transport parsing (docs/decisions.md § FX quotes and the quote lock). */
export interface FxQuoteQuery {
  /** Fiat amount, at least 0.01 (JSON number or decimal string). */
  readonly amount: number | string;
  readonly sourceCurrency: FxSourceCurrency;
  readonly destinationCurrency: Stablecoin;
  readonly paymentMethod?: PaymentMethod;
  readonly country?: CountryCode;
  readonly optionalIssuerFee?: IssuerFeeOption;
  readonly blockchain?: Blockchain;
}

/** Ports and settings of the FX quote use case. */
export interface FxQuoteDeps {
  readonly catalog: Catalog;
  readonly rates: RateSource;
  readonly quotes: QuoteRepository;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** Quote lifetime in seconds (QUOTE_TTL_SECONDS, default 60). */
  readonly quoteTtlSeconds: number;
}

const MIN_FX_AMOUNT = new Decimal('0.01');

/**
 * Prices `amount` of fiat in a stablecoin and stores the quote so a money-out can lock its rate
 * (OpenAPI convertFx; docs/decisions.md § FX quotes and the quote lock). Defaults: paymentMethod MOMO, optionalIssuerFee NO, the catalog's
 * default blockchain. Errors: `validation_error` (amount under 0.01 or over-precise),
 * `unsupported_pair` (no rate, a currency no payout provider pays out in, or a country that does not use the currency), `rate_unavailable` (no
 * trustworthy live rate now; `details.retryAfterS`; nothing is stored). The quote is stored with its
 * pricing record (docs/decisions.md § FX quotes: pricing records) in the same insert.
 */
export async function getFxQuote(
  deps: FxQuoteDeps,
  tenantId: string,
  query: FxQuoteQuery,
): Promise<Result<Quote, FxQuoteErrorCode>> {
  const amount = parseAmount(query.amount, 'amount', Math.max(2, scaleOf(query.sourceCurrency)));
  if (!amount.ok) return amount;
  if (amount.value.lt(MIN_FX_AMOUNT)) return err('validation_error', 'amount must be at least 0.01', { field: 'amount' });

  // Only what the service pays out is quoted (docs/decisions.md § Corridor catalog: what is quoted is paid).
  if (!paysOutIn(deps.catalog, query.sourceCurrency)) return err('unsupported_pair', `No payout provider pays out in ${query.sourceCurrency}`);
  if (query.country && deps.catalog.countries[query.country]?.currency !== query.sourceCurrency) {
    return err('unsupported_pair', `${query.country} does not pay out in ${query.sourceCurrency}`);
  }
  const paymentMethod = query.paymentMethod ?? 'MOMO';
  const rate = await deps.rates.rate(query.sourceCurrency, query.destinationCurrency, { tenantId, paymentMethod, country: query.country });
  if (!rate.ok) return rate;

  const now = deps.clock.now();
  const blockchain = query.blockchain ?? deps.catalog.defaultBlockchain;
  const optionalIssuerFee = query.optionalIssuerFee ?? 'NO';
  const pricing = price(deps.catalog, {
    fiatCurrency: query.sourceCurrency,
    stablecoin: query.destinationCurrency,
    fiatAmount: amount.value,
    paymentMethod,
    country: query.country,
    blockchain,
    optionalIssuerFee,
    exchangeRate: rate.value.rate,
  });
  const quote = new Quote({
    id: deps.ids.next('quo'),
    tenantId,
    fiatCurrency: query.sourceCurrency,
    stablecoin: query.destinationCurrency,
    fiatAmount: amount.value.toString(),
    exchangeRate: pricing.exchangeRate,
    payoutFee: pricing.payoutFee,
    convertedAmount: pricing.amountStablecoin,
    paymentMethod,
    country: query.country ?? null,
    blockchain,
    optionalIssuerFee,
    expiresAt: new Date(now.getTime() + deps.quoteTtlSeconds * 1000),
    createdAt: now,
    usedAt: null,
    paymentId: null,
    pricing: pricingRecordOf(rate.value.basis, pricing),
  });
  await deps.quotes.insert(quote);
  return ok(quote);
}
