import { ArgsType, Field, ObjectType } from 'type-graphql';
import { CORRIDOR_UNAVAILABLE_CODES, type CorridorUnavailableCode } from '../../core/catalog/list-corridors';
import type { MoneyOutCountry, PaymentMethod } from '../../core/catalog/catalog';
import type { FiatCurrency, Stablecoin } from '../../core/shared/money';
import { CorridorQuery } from '../contract/corridor.contract';
import type { FieldDrift, NoDrift } from '../contract/schema-ties';
import { fieldOf } from './contract-fields';
import { DecimalScalar } from './decimal.scalar';
import { CountryEnum, FiatCurrencyEnum, PaymentMethodEnum, StablecoinEnum, enumOf } from './enums.type';

/** Why a corridor is not payable now (REST: `unavailableCode`, lower case). */
export const CorridorUnavailableCodeEnum = enumOf(CORRIDOR_UNAVAILABLE_CODES, 'CorridorUnavailableCode', 'The error a money-out to a corridor not payable now would get');

/** Arguments of `corridors`: the query of REST's GET /v1/corridors (OpenAPI listCorridors), checked by its zod schema. */
@ArgsType()
export class CorridorArgs {
  @Field(() => CountryEnum, fieldOf(CorridorQuery, 'country'))
  country?: string | null;

  @Field(() => PaymentMethodEnum, fieldOf(CorridorQuery, 'paymentMethod'))
  paymentMethod?: string | null;
}
type _CorridorArgsTie = NoDrift<FieldDrift<CorridorArgs, typeof CorridorQuery>>;

/** One corridor we pay (OpenAPI listCorridors; docs/api.md § Corridors). */
@ObjectType('Corridor', { description: 'A country, method and operator or bank code a money-out pays, and whether your environment can pay it now (REST: GET /v1/corridors)' })
export class CorridorType {
  @Field(() => CountryEnum, { description: 'Recipient country' })
  country!: MoneyOutCountry;

  @Field(() => String, { description: 'Country name in English' })
  countryName!: string;

  @Field(() => FiatCurrencyEnum, { description: 'Currency the recipient is paid in: send as destinationCurrency' })
  currency!: FiatCurrency;

  @Field(() => PaymentMethodEnum, { description: 'Payout method' })
  paymentMethod!: PaymentMethod;

  @Field(() => String, { description: 'Operator code (MOMO, PAYBILL, TILL) or bank code (BANK): send as paymentCode' })
  paymentCode!: string;

  @Field(() => String, { nullable: true, description: 'Name of the bank for BANK; null otherwise' })
  bankName!: string | null;

  @Field(() => DecimalScalar, { description: 'Smallest fiatAmount accepted, in currency, inclusive' })
  minAmount!: string;

  @Field(() => DecimalScalar, { description: 'Largest fiatAmount accepted, in currency, inclusive' })
  maxAmount!: string;

  @Field(() => [StablecoinEnum], { description: 'Stablecoins a money-out to it may be funded with' })
  sourceCurrencies!: Stablecoin[];

  @Field(() => Boolean, { description: 'Whether a money-out to it is taken now for your key\'s environment (sandbox keys: every corridor)' })
  payable!: boolean;

  @Field(() => CorridorUnavailableCodeEnum, { nullable: true, description: 'Null when payable; else the error a money-out to it would get: CORRIDOR_NOT_AVAILABLE (permanent) or PROVIDER_UNAVAILABLE (retry later)' })
  unavailableCode!: CorridorUnavailableCode | null;
}
