import { DateTimeISOResolver, SafeIntResolver } from 'graphql-scalars';
import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import type { Blockchain } from '../../core/catalog/catalog';
import { DEPOSIT_SOURCES, DEPOSIT_STATUSES, type DepositStatus, type DepositView } from '../../core/deposits/deposit';
import type { DepositAddressView } from '../../core/deposits/deposit-addresses';
import type { Stablecoin } from '../../core/shared/money';
import { DepositAddressResponse, DepositListFilterFields, DepositResponse } from '../contract/deposit.contract';
import { descriptionOf } from './contract-fields';
import { connectionType } from './connection.type';
import { DecimalScalar } from './decimal.scalar';
import { BlockchainEnum, enumOf, StablecoinEnum } from './enums.type';
import { NodeInterface } from './node.type';

/** Deposit states (docs/decisions.md § Onchain deposits), the core's strings. */
export const DepositStatusEnum = enumOf(DEPOSIT_STATUSES, 'DepositStatus', 'Deposit state: detected, then credited once final, or dropped by a reorganisation before; held (then rejected) when its sender is a sanctioned address', {
  detected: 'Read from the chain, not yet final; the balance not yet credited',
  credited: 'Final; the balance was credited once',
  dropped: 'Removed by a reorganisation before it was final; the balance never moved',
  held: 'Final, but its sender is an OFAC-listed address: not credited, held for compliance review',
  rejected: 'Rejected by compliance review (a sanctioned sender): never credited',
});
/** Where a deposit came from. */
export const DepositSourceEnum = enumOf(DEPOSIT_SOURCES, 'DepositSource', 'Where a deposit came from', {
  chain: 'Read by the chain watcher', operator: "An operator's audited correction",
});

const field = (name: keyof typeof DepositResponse.shape) => descriptionOf(DepositResponse.shape[name]);

/**
 * `Deposit` (docs/decisions.md § Onchain deposits and § GraphQL): exactly the object of REST GET
 * /v1/deposits/{id}, each field described by the same zod schema. Resolvers return the core's
 * DepositView unchanged; this class only describes the shape.
 */
@ObjectType('Deposit', { description: descriptionOf(DepositResponse), implements: NodeInterface })
export class DepositType implements DepositView {
  @Field(() => ID, { description: field('id') })
  id!: string;

  @Field(() => BlockchainEnum, { description: field('blockchain') })
  blockchain!: Blockchain;

  @Field(() => StablecoinEnum, { description: field('currency') })
  currency!: Stablecoin;

  @Field(() => String, { nullable: true, description: field('token') })
  token!: string | null;

  @Field(() => DecimalScalar, { description: field('amount') })
  amount!: string;

  @Field(() => String, { description: field('remainderUnits') })
  remainderUnits!: string;

  @Field(() => String, { nullable: true, description: field('sender') })
  sender!: string | null;

  @Field(() => String, { nullable: true, description: field('depositAddress') })
  depositAddress!: string | null;

  @Field(() => String, { description: field('txHash') })
  txHash!: string;

  @Field(() => Int, { description: field('index') })
  index!: number;

  @Field(() => SafeIntResolver, { nullable: true, description: field('height') })
  height!: number | null;

  @Field(() => SafeIntResolver, { nullable: true, description: field('confirmations') })
  confirmations!: number | null;

  @Field(() => DepositStatusEnum, { description: field('status') })
  status!: DepositStatus;

  @Field(() => DepositSourceEnum, { description: field('source') })
  source!: DepositView['source'];

  @Field(() => String, { nullable: true, description: field('ledgerTransactionId') })
  ledgerTransactionId!: string | null;

  @Field(() => DateTimeISOResolver, { description: field('createdAt') })
  createdAt!: string;

  @Field(() => DateTimeISOResolver, { nullable: true, description: field('creditedAt') })
  creditedAt!: string | null;

  @Field(() => DateTimeISOResolver, { nullable: true, description: field('droppedAt') })
  droppedAt!: string | null;
}

/** The `deposits` connection: one page of REST's list, newest first. */
export const DepositConnectionType = connectionType<DepositView>(DepositType, 'Deposit', 'deposit', 'deposits', 'newest first');

const addressField = (name: keyof typeof DepositAddressResponse.shape) => descriptionOf(DepositAddressResponse.shape[name]);

/** `DepositAddress`: an item of REST GET /v1/deposit-addresses. A value object without an id of its own. */
@ObjectType('DepositAddress', { description: descriptionOf(DepositAddressResponse) })
export class DepositAddressType implements DepositAddressView {
  @Field(() => BlockchainEnum, { description: addressField('blockchain') })
  blockchain!: Blockchain;

  @Field(() => StablecoinEnum, { description: addressField('currency') })
  currency!: Stablecoin;

  @Field(() => String, { description: addressField('address') })
  address!: string;

  @Field(() => String, { description: addressField('ownerAddress') })
  ownerAddress!: string;

  @Field(() => String, { description: addressField('token') })
  token!: string;
}

/** Filters of `deposits`: REST GET /v1/deposits's filters, described by the same zod fields; all optional, AND-ed. */
@InputType('DepositFilter', { description: 'Filters of deposits: every given one must hold; a list matches any of its values' })
export class DepositFilterInput {
  @Field(() => [BlockchainEnum], { nullable: true, description: descriptionOf(DepositListFilterFields.blockchain) })
  blockchain?: Blockchain[] | null;

  @Field(() => [StablecoinEnum], { nullable: true, description: descriptionOf(DepositListFilterFields.currency) })
  currency?: Stablecoin[] | null;

  @Field(() => [DepositStatusEnum], { nullable: true, description: descriptionOf(DepositListFilterFields.status) })
  status?: DepositStatus[] | null;

  @Field(() => DateTimeISOResolver, { nullable: true, description: descriptionOf(DepositListFilterFields.createdFrom) })
  createdFrom?: Date | null;

  @Field(() => DateTimeISOResolver, { nullable: true, description: descriptionOf(DepositListFilterFields.createdTo) })
  createdTo?: Date | null;
}
