import { EntitySchema } from '@mikro-orm/core';
import { Customer } from '../../../core/customers/customer';

/** Table `customers` (issue 6): unique externalId per tenant; a partial index feeds the KYC worker. */
export const CustomerSchema = new EntitySchema<Customer>({
  class: Customer,
  tableName: 'customers',
  uniques: [{ name: 'customers_tenant_external_unique', properties: ['tenantId', 'externalId'] }],
  indexes: [
    { name: 'customers_tenant_created_idx', properties: ['tenantId', 'createdAt', 'id'] },
    { name: 'customers_kyc_due_idx', properties: ['nextCheckAt'], expression: 'create index "customers_kyc_due_idx" on "customers" ("next_check_at") where "next_check_at" is not null' },
  ],
  properties: {
    id: { type: 'string', primary: true, length: 40 },
    tenantId: { type: 'string', length: 40 },
    externalId: { type: 'string', length: 100 },
    firstName: { type: 'string', length: 100 },
    lastName: { type: 'string', length: 100 },
    country: { type: 'string', length: 2 },
    dateOfBirth: { type: 'string', length: 10 },
    idType: { type: 'string', length: 20 },
    idNumber: { type: 'string', length: 32 },
    kycStatus: { type: 'string', length: 10 },
    kycReason: { type: 'text', nullable: true },
    nextCheckAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
    updatedAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
