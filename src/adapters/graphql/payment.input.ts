import { DateTimeISOResolver } from 'graphql-scalars';
import { Field, InputType, ObjectType } from 'type-graphql';
import type { CountryCode, PaymentMethod } from '../../core/catalog/catalog';
import type { PaymentStatus } from '../../core/payments/payment';
import type { PaymentView } from '../../core/payments/payment-view';
import type { FiatCurrency } from '../../core/shared/money';
import { PaymentListFilterFields } from '../contract/payment-list.contract';
import { MoneyOutBody } from '../contract/payment.contract';
import type { FieldDrift, NoDrift } from '../contract/schema-ties';
import { descriptionOf, fieldOf } from './contract-fields';
import { DecimalScalar } from './decimal.scalar';
import {
  BlockchainEnum, CountryEnum, FiatCurrencyEnum, IssuerFeeOptionEnum, PaymentMethodEnum, PaymentStatusEnum, StablecoinEnum,
} from './enums.type';
import { PaymentType } from './payment.type';

/**
 * Filters of `payments`: REST GET /v1/payments's filters (OpenAPI listPayments), the single-value
 * ones described by the same zod fields; all optional, AND-ed; a list matches any of its values and
 * an empty list is no filter. The resolver checks `reference` with REST's rule.
 */
@InputType('PaymentFilter', { description: 'Filters of payments: every given one must hold; a list matches any of its values' })
export class PaymentFilterInput {
  @Field(() => [PaymentStatusEnum], { nullable: true, description: 'Only payments in one of these statuses' })
  status?: PaymentStatus[] | null;

  @Field(() => [PaymentMethodEnum], { nullable: true, description: descriptionOf(PaymentListFilterFields.paymentMethod) })
  paymentMethod?: PaymentMethod[] | null;

  @Field(() => [FiatCurrencyEnum], { nullable: true, description: descriptionOf(PaymentListFilterFields.destinationCurrency) })
  destinationCurrency?: FiatCurrency[] | null;

  @Field(() => [CountryEnum], { nullable: true, description: "Only payments to a recipient in one of these countries" })
  country?: CountryCode[] | null;

  @Field(() => String, { nullable: true, description: descriptionOf(PaymentListFilterFields.reference) })
  reference?: string | null;

  @Field(() => DateTimeISOResolver, { nullable: true, description: descriptionOf(PaymentListFilterFields.createdFrom) })
  createdFrom?: Date | null;

  @Field(() => DateTimeISOResolver, { nullable: true, description: descriptionOf(PaymentListFilterFields.createdTo) })
  createdTo?: Date | null;
}

/**
 * Input of `createMoneyOut`: the fields of REST's POST /v1/payments/moneyout body (OpenAPI createMoneyOut),
 * checked and described by the same zod schema, so one command reaches the use case from either
 * transport. `fiatAmount` is typed as the schema takes it; the Decimal scalar hands over a string.
 */
@InputType('MoneyOutInput', { description: 'A money-out, as REST POST /v1/payments/moneyout takes it' })
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
@ObjectType('CreateMoneyOutPayload', { description: 'Answer of createMoneyOut: the payment, and whether this answer replays an earlier request' })
export class CreateMoneyOutPayload {
  @Field(() => PaymentType)
  payment!: PaymentView;

  @Field(() => Boolean, { description: 'True when the idempotency key was already used with this request (REST: Idempotent-Replayed)' })
  replayed!: boolean;
}
