import { DateTimeISOResolver } from 'graphql-scalars';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import type { Quote } from '../../core/quotes/quote';
import { DecimalScalar } from './decimal.scalar';
import { BlockchainEnum, CountryEnum, FiatCurrencyEnum, IssuerFeeOptionEnum, PaymentMethodEnum, StablecoinEnum } from './enums.type';

/**
 * `Quote` (OpenAPI convertFx plus the stored quote's id and terms; docs/decisions.md § FX quotes and the quote lock). Unlike REST, where the
 * interface makes `convertedAmount` a JSON number, every amount here is an exact Decimal string.
 */
@ObjectType('Quote', { description: 'A stored FX quote; pass its id as quoteId to ONE money-out of the same amount, pair and method to lock the rate' })
export class QuoteType {
  @Field(() => ID, { description: 'quo_-prefixed id' })
  id!: string;

  @Field(() => DecimalScalar, { description: 'Stablecoin total, payoutFee included' })
  convertedAmount!: string;

  @Field(() => DecimalScalar, { description: 'Units of source fiat per 1 stablecoin' })
  exchangeRate!: string;

  @Field(() => DecimalScalar, { description: 'Method + network + optional issuer fee, in the stablecoin' })
  payoutFee!: string;

  @Field(() => Int, { description: 'Unix seconds at which the quote expires' })
  expiryTimestamp!: number;

  @Field(() => DateTimeISOResolver, { description: 'When the quote expires (expiryTimestamp as a date-time)' })
  expiresAt!: Date;

  @Field(() => DecimalScalar, { description: 'The fiat amount quoted, at its currency\'s scale' })
  fiatAmount!: string;

  @Field(() => FiatCurrencyEnum, { description: 'The fiat currency quoted' })
  sourceCurrency!: string;

  @Field(() => StablecoinEnum, { description: 'The stablecoin quoted' })
  destinationCurrency!: string;

  @Field(() => PaymentMethodEnum, { description: 'The payment method priced' })
  paymentMethod!: string;

  @Field(() => CountryEnum, { nullable: true, description: 'The country priced; null when not given' })
  country!: string | null;

  @Field(() => BlockchainEnum, { description: 'The chain priced' })
  blockchain!: string;

  @Field(() => IssuerFeeOptionEnum, { description: 'Whether the optional issuer fee is included' })
  optionalIssuerFee!: string;
}

/** Maps a stored quote to its GraphQL shape. Pure. */
export function toQuoteType(quote: Quote): QuoteType {
  return {
    id: quote.id,
    convertedAmount: quote.convertedAmount,
    exchangeRate: quote.exchangeRate,
    payoutFee: quote.payoutFee,
    expiryTimestamp: Math.floor(quote.expiresAt.getTime() / 1000),
    expiresAt: quote.expiresAt,
    fiatAmount: quote.fiatAmount,
    sourceCurrency: quote.fiatCurrency,
    destinationCurrency: quote.stablecoin,
    paymentMethod: quote.paymentMethod,
    country: quote.country,
    blockchain: quote.blockchain,
    optionalIssuerFee: quote.optionalIssuerFee,
  };
}
