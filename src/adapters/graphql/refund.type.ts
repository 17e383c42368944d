import type { z } from 'zod';
import { DateTimeISOResolver } from 'graphql-scalars';
import { Field, ID, ObjectType } from 'type-graphql';
import type { Blockchain } from '../../core/catalog/catalog';
import { REFUND_STATUSES, type RefundStatus } from '../../core/refunds/onchain-refund';
import type { IssuerRefundView } from '../../core/refunds/refund-reads';
import type { Stablecoin } from '../../core/shared/money';
import { RefundResponse } from '../contract/refund.contract';
import type { KeyDrift, NoDrift } from '../contract/schema-ties';
import { descriptionOf } from './contract-fields';
import { DecimalScalar } from './decimal.scalar';
import { BlockchainEnum, enumOf, StablecoinEnum } from './enums.type';

/** Refund states (docs/decisions.md § Refunds), the core's strings. */
export const RefundStatusEnum = enumOf(REFUND_STATUSES, 'RefundStatus', 'Where an onchain refund stands (docs/decisions.md § Refunds)', {
  pending: 'Owed, not sent yet',
  broadcast: 'Sent from the hot wallet, waiting for finality',
  confirmed: 'Final onchain',
  failed: 'Needs an operator; it goes back to pending when retried',
  sent: 'An operator sent it by hand and recorded the transaction',
});

const field = (name: keyof typeof RefundResponse.shape) => descriptionOf(RefundResponse.shape[name]);

/**
 * `Refund` (docs/decisions.md § Refunds): exactly the object of REST GET /v1/refunds, each field
 * described by the same zod schema. Resolvers return the core's IssuerRefundView unchanged; this
 * class only describes the shape.
 */
@ObjectType('Refund', { description: descriptionOf(RefundResponse) })
export class RefundType implements IssuerRefundView {
  @Field(() => ID, { description: field('id') })
  id!: string;

  @Field(() => String, { description: field('paymentId') })
  paymentId!: string;

  @Field(() => DecimalScalar, { description: field('amount') })
  amount!: string;

  @Field(() => StablecoinEnum, { description: field('currency') })
  currency!: Stablecoin;

  @Field(() => BlockchainEnum, { description: field('blockchain') })
  blockchain!: Blockchain;

  @Field(() => String, { description: field('refundAddress') })
  refundAddress!: string;

  @Field(() => RefundStatusEnum, { description: field('status') })
  status!: RefundStatus;

  @Field(() => String, { nullable: true, description: field('txHash') })
  txHash!: string | null;

  @Field(() => DateTimeISOResolver, { description: field('createdAt') })
  createdAt!: string;

  @Field(() => DateTimeISOResolver, { nullable: true, description: field('sentAt') })
  sentAt!: string | null;
}

/** The GraphQL type has exactly the REST object's fields: a field added on one side only fails `tsc`. */
type _RefundTie = NoDrift<KeyDrift<RefundType, z.infer<typeof RefundResponse>>>;
