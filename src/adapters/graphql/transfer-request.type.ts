import { DateTimeISOResolver } from 'graphql-scalars';
import { Field, InputType, ObjectType } from 'type-graphql';
import { TERMINAL_TYPES, TRANSFER_CURRENCIES, type TransferCurrency, type TransferRequestStatus } from '../../core/transfers/transfer-request';
import { TransferRequestBody } from '../contract/transfer-request.contract';
import type { FieldDrift, NoDrift } from '../contract/schema-ties';
import { fieldOf } from './contract-fields';
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
 * its field limits included), checked and described by the same zod schema and use case.
 */
@InputType('TransferRequestInput', { description: 'A transfer request, as REST POST /tx/createTransferRequest takes it' })
export class TransferRequestInput {
  @Field(() => String, fieldOf(TransferRequestBody, 'recipient'))
  recipient!: string;

  @Field(() => DecimalScalar, fieldOf(TransferRequestBody, 'amount'))
  amount!: number | string;

  @Field(() => String, fieldOf(TransferRequestBody, 'acquirerMerchantName'))
  acquirerMerchantName!: string;

  @Field(() => String, fieldOf(TransferRequestBody, 'reference'))
  reference!: string;

  @Field(() => String, fieldOf(TransferRequestBody, 'merchantID'))
  merchantID!: string;

  @Field(() => String, fieldOf(TransferRequestBody, 'description'))
  description?: string | null;

  @Field(() => String, fieldOf(TransferRequestBody, 'successUrl'))
  successUrl?: string | null;

  @Field(() => String, fieldOf(TransferRequestBody, 'failedUrl'))
  failedUrl?: string | null;

  @Field(() => String, fieldOf(TransferRequestBody, 'webhookUrl'))
  webhookUrl?: string | null;

  @Field(() => String, fieldOf(TransferRequestBody, 'customReference'))
  customReference?: string | null;

  @Field(() => String, fieldOf(TransferRequestBody, 'merchantCategoryCode'))
  merchantCategoryCode?: string | null;

  @Field(() => String, fieldOf(TransferRequestBody, 'paymentProcessor'))
  paymentProcessor?: string | null;

  @Field(() => TerminalTypeEnum, fieldOf(TransferRequestBody, 'terminalType'))
  terminalType?: string | null;

  @Field(() => TransferCurrencyEnum, fieldOf(TransferRequestBody, 'currency'))
  currency?: string | null;
}
type _TransferRequestInputTie = NoDrift<FieldDrift<TransferRequestInput, typeof TransferRequestBody>>;

/** Result of `createTransferRequest` (OpenAPI createTransferRequest). */
@ObjectType('TransferRequestLink', { description: 'Answer of createTransferRequest: the link the payer opens' })
export class TransferRequestLinkType {
  @Field(() => String, { description: "The acquirer's deeplink, carrying a signed token" })
  link!: string;
}

/** A stored transfer request as REST's GET /tx/transferRequests/{reference} returns it. */
@ObjectType('TransferRequest', { description: 'A request for a payer to transfer an amount to a recipient wallet (REST: GET /tx/transferRequests/{reference})' })
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
