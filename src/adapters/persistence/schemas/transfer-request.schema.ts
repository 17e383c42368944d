import { EntitySchema } from '@mikro-orm/core';
import { TransferRequest } from '../../../core/transfers/transfer-request';
import { PlainDecimalType } from './plain-decimal.type';

/** Table `transfer_requests` (OpenAPI createTransferRequest), unique reference per tenant, unique deeplink token. */
export const TransferRequestSchema = new EntitySchema<TransferRequest>({
  class: TransferRequest,
  tableName: 'transfer_requests',
  uniques: [
    { name: 'transfer_requests_tenant_reference_unique', properties: ['tenantId', 'reference'] },
    { name: 'transfer_requests_token_unique', properties: ['token'] },
  ],
  properties: {
    id: { type: 'string', primary: true, length: 40 },
    tenantId: { type: 'string', length: 40 },
    reference: { type: 'string', length: 128 },
    recipient: { type: 'string', length: 128 },
    amount: { type: PlainDecimalType },
    currency: { type: 'string', length: 4 },
    acquirer: { type: 'string', length: 32 },
    merchantId: { type: 'string', length: 100 },
    description: { type: 'string', length: 100, nullable: true },
    successUrl: { type: 'string', length: 256, nullable: true },
    failedUrl: { type: 'string', length: 256, nullable: true },
    webhookUrl: { type: 'string', length: 256, nullable: true },
    customReference: { type: 'string', length: 100, nullable: true },
    merchantCategoryCode: { type: 'string', length: 10, nullable: true },
    paymentProcessor: { type: 'string', length: 32 },
    terminalType: { type: 'string', length: 3 },
    // Null only for requests made while links carried signed claims (they cannot be resolved).
    token: { type: 'string', length: 36, nullable: true },
    link: { type: 'text' },
    expiresAt: { type: 'Date', columnType: 'timestamptz' },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
