import { DateTimeISOResolver } from 'graphql-scalars';
import { Field, InputType, ObjectType } from 'type-graphql';
import { TERMINAL_TYPES, TRANSFER_CURRENCIES, type TransferCurrency, type TransferRequestStatus } from '../../core/transfers/transfer-request';
import { DecimalScalar } from './decimal.scalar';
import { enumOf } from './enums.type';

/** Currencies a transfer request is expressed in (OpenAPI createTransferRequest; default USDC). */
export const TransferCurrencyEnum = enumOf(TRANSFER_CURRENCIES, 'TransferCurrency', 'Currency of a transfer request');
/** Terminal types (OpenAPI createTransferRequest; default APP). */
export const TerminalTypeEnum = enumOf(TERMINAL_TYPES, 'TerminalType', 'Where the payer completes the transfer');
/** States of a transfer request: pending until its link expires. */
export const TransferRequestStatusEnum = enumOf(['pending', 'expired'] as const satisfies readonly TransferRequestStatus[], 'TransferRequestStatus', 'State of a transfer request');

/**
 * Input of `createTransferRequest`: REST's POST /tx/createTransferRequest body (OpenAPI createTransferRequest,
 * its field limits included), checked by the same zod schema and use case.
 */
@InputType('TransferRequestInput')
export class TransferRequestInput {
  @Field(() => String, { description: 'Recipient wallet address' })
  recipient!: string;

  @Field(() => DecimalScalar, { description: 'Total amount, at least 0.01 and a multiple of 0.01' })
  amount!: string;

  @Field(() => String, { description: 'Acquirer key from the catalog (ACQ_1, ACQ_2, ACQ_3)' })
  acquirerMerchantName!: string;

  @Field(() => String, { description: 'Your unique reference, at most 128 characters' })
  reference!: string;

  @Field(() => String)
  merchantID!: string;

  @Field(() => String, { nullable: true, description: 'At most 100 characters' })
  description?: string | null;

  @Field(() => String, { nullable: true, description: 'At most 256 characters' })
  successUrl?: string | null;

  @Field(() => String, { nullable: true, description: 'At most 256 characters' })
  failedUrl?: string | null;

  @Field(() => String, { nullable: true, description: 'At most 256 characters' })
  webhookUrl?: string | null;

  @Field(() => String, { nullable: true, description: 'At most 100 characters' })
  customReference?: string | null;

  @Field(() => String, { nullable: true, description: '01 tangible goods, 02 virtual goods' })
  merchantCategoryCode?: string | null;

  @Field(() => String, { nullable: true, description: 'The single payment-processor value; default it' })
  paymentProcessor?: string | null;

  @Field(() => TerminalTypeEnum, { nullable: true, description: 'Default APP' })
  terminalType?: string | null;

  @Field(() => TransferCurrencyEnum, { nullable: true, description: 'Default USDC' })
  currency?: string | null;
}

/** Result of `createTransferRequest` (OpenAPI createTransferRequest). */
@ObjectType('TransferRequestLink')
export class TransferRequestLinkType {
  @Field(() => String, { description: "The acquirer's deeplink, carrying a signed token" })
  link!: string;
}

/** A stored transfer request as REST's GET /tx/transferRequests/{reference} returns it. */
@ObjectType('TransferRequest')
export class TransferRequestType {
  @Field(() => String)
  reference!: string;

  @Field(() => TransferRequestStatusEnum)
  status!: TransferRequestStatus;

  @Field(() => String)
  link!: string;

  @Field(() => DecimalScalar, { description: 'Amount with 2 decimal places, in currency' })
  amount!: string;

  @Field(() => TransferCurrencyEnum)
  currency!: TransferCurrency;

  @Field(() => String)
  acquirerMerchantName!: string;

  @Field(() => String)
  recipient!: string;

  @Field(() => DateTimeISOResolver)
  createdAt!: string;

  @Field(() => DateTimeISOResolver, { description: 'When the link stops being valid' })
  expiresAt!: string;
}
