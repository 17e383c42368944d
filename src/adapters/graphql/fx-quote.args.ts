import { ArgsType, Field } from 'type-graphql';
import { FxQuery } from '../contract/fx.contract';
import type { FieldDrift, NoDrift } from '../contract/schema-ties';
import { fieldOf } from './contract-fields';
import { DecimalScalar } from './decimal.scalar';
import { BlockchainEnum, CountryEnum, FiatCurrencyEnum, IssuerFeeOptionEnum, PaymentMethodEnum, StablecoinEnum } from './enums.type';

/**
 * Arguments of `fxQuote`: those of REST's GET /fx/convert (OpenAPI convertFx; docs/decisions.md § FX quotes and the quote lock),
 * checked and described by its zod schema.
 */
@ArgsType()
export class FxQuoteArgs {
  @Field(() => DecimalScalar, fieldOf(FxQuery, 'amount'))
  amount!: number | string;

  @Field(() => FiatCurrencyEnum, fieldOf(FxQuery, 'sourceCurrency'))
  sourceCurrency!: string;

  @Field(() => StablecoinEnum, fieldOf(FxQuery, 'destinationCurrency'))
  destinationCurrency!: string;

  @Field(() => PaymentMethodEnum, fieldOf(FxQuery, 'paymentMethod'))
  paymentMethod?: string | null;

  @Field(() => CountryEnum, fieldOf(FxQuery, 'country'))
  country?: string | null;

  @Field(() => IssuerFeeOptionEnum, fieldOf(FxQuery, 'optionalIssuerFee'))
  optionalIssuerFee?: string | null;

  @Field(() => BlockchainEnum, fieldOf(FxQuery, 'blockchain'))
  blockchain?: string | null;
}
type _FxQuoteArgsTie = NoDrift<FieldDrift<FxQuoteArgs, typeof FxQuery>>;
