import { DateTimeISOResolver } from 'graphql-scalars';
import { Field, ID, ObjectType } from 'type-graphql';
import type { PaymentView } from '../../core/payments/payment-view';
import { DecimalScalar } from './decimal.scalar';
import { connectionType } from './connection.type';
import { FiatCurrencyEnum, PaymentFailureCodeEnum, PaymentMethodEnum, PaymentStatusEnum, StablecoinEnum } from './enums.type';
import { NodeInterface } from './node.type';

/**
 * `Payment` (OpenAPI getPayment plus failureReason, failureCode, exchangeRate and payoutFee). Resolvers
 * return the core's PaymentView unchanged, so GraphQL and REST show the same values; this class
 * only describes the GraphQL shape and is never instantiated.
 */
@ObjectType('Payment', { description: 'A money-out payment (OpenAPI getPayment)', implements: NodeInterface })
export class PaymentType implements PaymentView {
  @Field(() => ID, { description: 'pay_-prefixed ULID' })
  id!: string;

  @Field(() => PaymentStatusEnum, { description: 'Where the payment stands' })
  status!: PaymentView['status'];

  @Field(() => PaymentMethodEnum, { description: 'How the recipient is paid' })
  paymentMethod!: PaymentView['paymentMethod'];

  @Field(() => StablecoinEnum, { description: 'Stablecoin that funds the payment' })
  sourceCurrency!: PaymentView['sourceCurrency'];

  @Field(() => DecimalScalar, { description: 'Total stablecoin amount charged (scale 6)' })
  amountStablecoin!: string;

  @Field(() => DecimalScalar, { description: 'Fiat amount the recipient receives' })
  fiatAmount!: string;

  @Field(() => FiatCurrencyEnum, { description: 'Currency the recipient receives' })
  destinationCurrency!: PaymentView['destinationCurrency'];

  @Field(() => String, { nullable: true, description: 'Provider transaction id; null until the provider accepts' })
  providerRef!: string | null;

  @Field(() => String, { nullable: true, description: "Caller's own reference, as supplied" })
  reference!: string | null;

  @Field(() => DateTimeISOResolver, { description: 'When the payment was created' })
  createdAt!: string;

  @Field(() => DateTimeISOResolver, { description: 'When its status last changed' })
  updatedAt!: string;

  @Field(() => String, { nullable: true, description: 'Why it failed or was refunded, in words for people; null otherwise' })
  failureReason!: string | null;

  @Field(() => PaymentFailureCodeEnum, { nullable: true, description: 'Why it failed or was refunded, as a code to branch on; null unless failed or refunded' })
  failureCode!: PaymentView['failureCode'];

  @Field(() => DecimalScalar, { description: 'Units of fiat per 1 stablecoin used for this payment' })
  exchangeRate!: string;

  @Field(() => DecimalScalar, { description: 'Fees included in amountStablecoin, in the stablecoin' })
  payoutFee!: string;
}

/** The `payments` connection: newest first (Relay cursor connections). */
export const PaymentConnectionType = connectionType<PaymentView>(PaymentType, 'Payment', 'payment', 'payments', 'newest first');
