import { DateTimeISOResolver } from 'graphql-scalars';
import { Field, ID, ObjectType } from 'type-graphql';
import { ACCOUNT_KINDS, type BalanceView, type LedgerTransactionKind, type LedgerTransactionView } from '../../core/ledger/ledger';
import { DecimalScalar } from './decimal.scalar';
import { enumOf, StablecoinEnum } from './enums.type';
import { connectionType } from './connection.type';
import { NodeInterface } from './node.type';

/** Every kind once: a Record, so a kind added to the core fails to compile here until it is listed. */
const KINDS: Record<LedgerTransactionKind, true> = { deposit: true, sandbox_funding: true, hold: true, send: true, release: true, settle: true, return: true, refund_sent: true };

/** Why money moved (docs/decisions.md § Ledger), the same strings as REST's LedgerTransaction.kind. */
export const LedgerTransactionKindEnum = enumOf(
  Object.keys(KINDS) as LedgerTransactionKind[], 'LedgerTransactionKind',
  'Why money moved: deposit (onchain), sandbox_funding (a sandbox tenant\'s opening balance, never onchain), hold (money-out created), send (provider accepted), release (refused before acceptance), settle (succeeded), return (failed or refunded after acceptance), refund_sent (a live payment\'s onchain refund recorded as sent)',
);

/** Ledger accounts, the same strings as REST (in_transit with an underscore, as REST writes it). */
export const LedgerAccountEnum = enumOf(
  ACCOUNT_KINDS, 'LedgerAccount',
  'Ledger account: available, held and in_transit are your balance; funding, settled, refunded and refund_pending (a live payment\'s refund not yet sent onchain) are the counter-accounts',
);

/**
 * `Balance` (docs/decisions.md § Ledger and § GraphQL): one per stablecoin, exactly the object of REST GET
 * /v1/balances. Amounts are Decimal strings at scale 6 in stablecoin units ("87.884584").
 * Resolvers return the core's BalanceView unchanged; this class only describes the shape.
 */
@ObjectType('Balance', { description: 'Stablecoin balance: available to spend, held by initiated payouts, in transit to the provider (REST: GET /v1/balances)' })
export class BalanceType implements BalanceView {
  @Field(() => StablecoinEnum)
  currency!: BalanceView['currency'];

  @Field(() => DecimalScalar, { description: 'Spendable now, scale 6' })
  available!: string;

  @Field(() => DecimalScalar, { description: 'Held by money-outs the provider has not accepted yet, scale 6' })
  held!: string;

  @Field(() => DecimalScalar, { description: 'Accepted by the provider, not yet settled or returned, scale 6' })
  inTransit!: string;
}

/**
 * `LedgerTransaction` (docs/decisions.md § Ledger and § GraphQL): one double-entry transfer of `amount` (positive
 * Decimal string, scale 6, stablecoin units) from one account to another, exactly the object of
 * REST GET /v1/balances/transactions.
 */
@ObjectType('LedgerTransaction', { description: 'One ledger transaction: amount moved from one account to another (REST: GET /v1/balances/transactions)', implements: NodeInterface })
export class LedgerTransactionType implements LedgerTransactionView {
  @Field(() => ID)
  id!: string;

  @Field(() => LedgerTransactionKindEnum)
  kind!: LedgerTransactionView['kind'];

  @Field(() => StablecoinEnum)
  currency!: LedgerTransactionView['currency'];

  @Field(() => DecimalScalar, { description: 'Positive, scale 6' })
  amount!: string;

  @Field(() => LedgerAccountEnum)
  from!: LedgerTransactionView['from'];

  @Field(() => LedgerAccountEnum)
  to!: LedgerTransactionView['to'];

  @Field(() => String, { nullable: true, description: 'The money-out that moved it; null for deposits' })
  paymentId!: string | null;

  @Field(() => String, { nullable: true, description: 'For deposits: <blockchain>:<onchain hash>; null otherwise' })
  txHash!: string | null;

  @Field(() => DateTimeISOResolver)
  createdAt!: string;
}

/** The `balanceTransactions` connection: one page of REST's list, newest first. */
export const LedgerTransactionConnectionType = connectionType<LedgerTransactionView>(LedgerTransactionType, 'LedgerTransaction', 'ledger transaction', 'ledger transactions', 'newest first');
