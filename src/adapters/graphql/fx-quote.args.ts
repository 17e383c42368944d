import { ArgsType, Field } from 'type-graphql';
import { DecimalScalar } from './decimal.scalar';
import { BlockchainEnum, CountryEnum, FiatCurrencyEnum, IssuerFeeOptionEnum, PaymentMethodEnum, StablecoinEnum } from './enums.type';

/** Arguments of `fxQuote`: those of REST's GET /fx/convert (OpenAPI convertFx; docs/decisions.md § FX quotes and the quote lock), checked by its zod schema. */
@ArgsType()
export class FxQuoteArgs {
  @Field(() => DecimalScalar, { description: 'Fiat amount to convert, at least 0.01' })
  amount!: string;

  @Field(() => FiatCurrencyEnum, { description: 'Local fiat currency (any but XAF and XOF)' })
  sourceCurrency!: string;

  @Field(() => StablecoinEnum)
  destinationCurrency!: string;

  @Field(() => PaymentMethodEnum, { nullable: true, description: 'Default MOMO' })
  paymentMethod?: string | null;

  @Field(() => CountryEnum, { nullable: true })
  country?: string | null;

  @Field(() => IssuerFeeOptionEnum, { nullable: true, description: 'Default NO' })
  optionalIssuerFee?: string | null;

  @Field(() => BlockchainEnum, { nullable: true, description: 'Default from the catalog' })
  blockchain?: string | null;
}
