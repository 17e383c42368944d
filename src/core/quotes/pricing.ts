import type { Blockchain, Catalog, CountryCode, PaymentMethod } from '../catalog/catalog';
import { Decimal, formatAmount, formatDecimal, roundUp, type FiatCurrency, type Stablecoin } from '../shared/money';

/** Whether the caller adds the issuer's optional fee (OpenAPI convertFx). */
export const ISSUER_FEE_OPTIONS = ['YES', 'NO'] as const;
export type IssuerFeeOption = (typeof ISSUER_FEE_OPTIONS)[number];

/** What is priced: a fiat payout amount funded by a stablecoin (docs/decisions.md § FX quotes and the quote lock). */
export interface PricingInput {
  readonly fiatCurrency: FiatCurrency;
  readonly stablecoin: Stablecoin;
  /** Fiat amount the recipient receives, exact. */
  readonly fiatAmount: Decimal;
  readonly paymentMethod: PaymentMethod;
  /** Country whose fee override applies, when known. */
  readonly country?: CountryCode;
  readonly blockchain: Blockchain;
  readonly optionalIssuerFee: IssuerFeeOption;
  /** Units of fiat per 1 stablecoin, decimal string. */
  readonly exchangeRate: string;
}

/** The priced result; every amount a decimal string in the stablecoin at scale 6, the rate without trailing zeros. */
export interface Pricing {
  readonly exchangeRate: string;
  /** Method fee + network fee + optional issuer fee, in the stablecoin. */
  readonly payoutFee: string;
  /** fiatAmount / exchangeRate + payoutFee, rounded up at scale 6 (never under-collect). */
  readonly amountStablecoin: string;
}

/**
 * Prices a payout (docs/decisions.md § FX quotes and the quote lock): `amountStablecoin = fiatAmount / exchangeRate + payoutFee`, with
 * the fee from the catalog's fee table (a country's method fee overrides the default). Pure.
 */
export function price(catalog: Catalog, input: PricingInput): Pricing {
  const override = input.country ? catalog.countries[input.country]?.methods[input.paymentMethod]?.fee : undefined;
  const methodFee = new Decimal(override ?? catalog.fees.methods[input.paymentMethod]);
  const networkFee = new Decimal(catalog.fees.networks[input.blockchain]);
  const issuerFee = input.optionalIssuerFee === 'YES' ? new Decimal(catalog.fees.issuerFee) : new Decimal(0);
  const fee = roundUp(methodFee.plus(networkFee).plus(issuerFee), input.stablecoin);
  const principal = input.fiatAmount.div(new Decimal(input.exchangeRate));
  const total = roundUp(principal.plus(fee), input.stablecoin);
  return {
    exchangeRate: formatDecimal(input.exchangeRate, new Decimal(input.exchangeRate).decimalPlaces()),
    payoutFee: formatAmount(fee, input.stablecoin),
    amountStablecoin: formatAmount(total, input.stablecoin),
  };
}
