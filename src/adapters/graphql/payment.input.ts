import { DateTimeISOResolver } from 'graphql-scalars';
import { Field, InputType, ObjectType } from 'type-graphql';
import type { PaymentMethod } from '../../core/catalog/catalog';
import type { PaymentStatus } from '../../core/payments/payment';
import type { PaymentView } from '../../core/payments/payment-view';
import type { FiatCurrency } from '../../core/shared/money';
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

  @Field(() => String, { nullable: true, description: 'Exact match on your reference' })
  reference?: string | null;

  @Field(() => DateTimeISOResolver, { nullable: true, description: 'Created at or after (inclusive)' })
  createdFrom?: Date | null;

  @Field(() => DateTimeISOResolver, { nullable: true, description: 'Created before (exclusive)' })
  createdTo?: Date | null;
}

/**
 * Input of `createMoneyOut`: the fields of REST's POST /v1/payments/moneyout body (OpenAPI createMoneyOut),
 * checked by the same zod schema, so one command reaches the use case from either transport.
 */
@InputType('MoneyOutInput')
export class MoneyOutInput {
  @Field(() => DecimalScalar, { description: 'Amount the recipient receives, in destinationCurrency' })
  fiatAmount!: string;

  @Field(() => StablecoinEnum)
  sourceCurrency!: string;

  @Field(() => FiatCurrencyEnum)
  destinationCurrency!: string;

  @Field(() => CountryEnum)
  country!: string;

  @Field(() => BlockchainEnum)
  blockchain!: string;

  @Field(() => PaymentMethodEnum)
  paymentMethod!: string;

  @Field(() => String, { description: 'Recipient full name for the payment method' })
  accountName!: string;

  @Field(() => String, { description: 'Recipient phone number or account number' })
  accountNumber!: string;

  @Field(() => String, { description: 'Operator or bank code valid for the country and method' })
  paymentCode!: string;

  @Field(() => String, { description: 'Your unique reference' })
  reference!: string;

  @Field(() => String, { description: 'Onchain address that receives the funds if the payout fails' })
  refundAddress!: string;

  @Field(() => IssuerFeeOptionEnum)
  optionalIssuerFee!: string;

  @Field(() => String, { nullable: true, description: 'Only for PAYBILL: 6 digits' })
  businessNumber?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'Lock the rate of a stored quote (quo_...): once, for a money-out of its amount, pair and paymentMethod (else validation_error); a second use is quote_already_used',
  })
  quoteId?: string | null;
}

/** Result of `createMoneyOut`: the payment, and whether this answer replays an earlier request with the same key. */
@ObjectType('CreateMoneyOutPayload')
export class CreateMoneyOutPayload {
  @Field(() => PaymentType)
  payment!: PaymentView;

  @Field(() => Boolean, { description: 'True when the idempotency key was already used with this request (REST: Idempotent-Replayed)' })
  replayed!: boolean;
}
