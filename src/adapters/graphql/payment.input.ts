import { DateTimeISOResolver } from 'graphql-scalars';
import { Field, InputType, ObjectType } from 'type-graphql';
import type { CountryCode, PaymentMethod } from '../../core/catalog/catalog';
import type { PaymentStatus } from '../../core/payments/payment';
import type { PaymentView } from '../../core/payments/payment-view';
import type { FiatCurrency } from '../../core/shared/money';
import { MoneyOutBody } from '../contract/payment.contract';
import type { FieldDrift, NoDrift } from '../contract/schema-ties';
import { fieldOf } from './contract-fields';
import { DecimalScalar } from './decimal.scalar';
import {
  BlockchainEnum, CountryEnum, FiatCurrencyEnum, IssuerFeeOptionEnum, PaymentMethodEnum, PaymentStatusEnum, StablecoinEnum,
} from './enums.type';
import { PaymentType } from './payment.type';

/** Filters of `payments`; all optional, AND-ed; list filters match any of their values. */
@InputType('PaymentFilter')
export class PaymentFilterInput {
  @Field(() => [PaymentStatusEnum], { nullable: true })
  status?: PaymentStatus[] | null;

  @Field(() => [PaymentMethodEnum], { nullable: true })
  paymentMethod?: PaymentMethod[] | null;

  @Field(() => [FiatCurrencyEnum], { nullable: true })
  destinationCurrency?: FiatCurrency[] | null;

  @Field(() => [CountryEnum], { nullable: true, description: "The recipient's country" })
  country?: CountryCode[] | null;

  @Field(() => String, { nullable: true, description: 'Exact match on your reference' })
  reference?: string | null;

  @Field(() => DateTimeISOResolver, { nullable: true, description: 'Created at or after (inclusive)' })
  createdFrom?: Date | null;

  @Field(() => DateTimeISOResolver, { nullable: true, description: 'Created before (exclusive)' })
  createdTo?: Date | null;
}

/**
 * Input of `createMoneyOut`: the fields of REST's POST /v1/payments/moneyout body (OpenAPI createMoneyOut),
 * checked and described by the same zod schema, so one command reaches the use case from either
 * transport. `fiatAmount` is typed as the schema takes it; the Decimal scalar hands over a string.
 */
@InputType('MoneyOutInput')
export class MoneyOutInput {
  @Field(() => DecimalScalar, fieldOf(MoneyOutBody, 'fiatAmount'))
  fiatAmount!: number | string;

  @Field(() => StablecoinEnum, fieldOf(MoneyOutBody, 'sourceCurrency'))
  sourceCurrency!: string;

  @Field(() => FiatCurrencyEnum, fieldOf(MoneyOutBody, 'destinationCurrency'))
  destinationCurrency!: string;

  @Field(() => CountryEnum, fieldOf(MoneyOutBody, 'country'))
  country!: string;

  @Field(() => BlockchainEnum, fieldOf(MoneyOutBody, 'blockchain'))
  blockchain!: string;

  @Field(() => PaymentMethodEnum, fieldOf(MoneyOutBody, 'paymentMethod'))
  paymentMethod!: string;

  @Field(() => String, fieldOf(MoneyOutBody, 'accountName'))
  accountName!: string;

  @Field(() => String, fieldOf(MoneyOutBody, 'accountNumber'))
  accountNumber!: string;

  @Field(() => String, fieldOf(MoneyOutBody, 'paymentCode'))
  paymentCode!: string;

  @Field(() => String, fieldOf(MoneyOutBody, 'reference'))
  reference!: string;

  @Field(() => String, fieldOf(MoneyOutBody, 'refundAddress'))
  refundAddress!: string;

  @Field(() => IssuerFeeOptionEnum, fieldOf(MoneyOutBody, 'optionalIssuerFee'))
  optionalIssuerFee!: string;

  @Field(() => String, fieldOf(MoneyOutBody, 'businessNumber'))
  businessNumber?: string | null;

  @Field(() => String, fieldOf(MoneyOutBody, 'quoteId'))
  quoteId?: string | null;
}
type _MoneyOutInputTie = NoDrift<FieldDrift<MoneyOutInput, typeof MoneyOutBody>>;

/** Result of `createMoneyOut`: the payment, and whether this answer replays an earlier request with the same key. */
@ObjectType('CreateMoneyOutPayload')
export class CreateMoneyOutPayload {
  @Field(() => PaymentType)
  payment!: PaymentView;

  @Field(() => Boolean, { description: 'True when the idempotency key was already used with this request (REST: Idempotent-Replayed)' })
  replayed!: boolean;
}
