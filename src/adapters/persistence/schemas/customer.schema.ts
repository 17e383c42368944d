import { EntitySchema, type EntityClass } from '@mikro-orm/core';
import { Customer } from '../../../core/customers/customer';
import { SealedTextType } from './sealed-text.type';

/**
 * A stored customer: the domain customer plus the keyed hash of its id number, which only
 * persistence knows (docs/decisions.md § Personal data and secrets).
 */
export type CustomerRow = Customer & { idNumberHash?: string | null };

/**
 * Table `customers`: unique externalId per tenant; a partial index feeds the KYC worker. The id
 * number is stored sealed, with a keyed hash beside it for equality lookups (indexed per tenant).
 */
export const CustomerSchema = new EntitySchema<CustomerRow>({
  class: Customer as EntityClass<CustomerRow>,
  tableName: 'customers',
  uniques: [{ name: 'customers_tenant_external_unique', properties: ['tenantId', 'externalId'] }],
  indexes: [
    { name: 'customers_tenant_created_idx', properties: ['tenantId', 'createdAt', 'id'] },
    { name: 'customers_tenant_id_number_hash_idx', properties: ['tenantId', 'idNumberHash'] },
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
    // Nullable only until the start-up backfill has sealed the rows written in clear before.
    idNumber: { type: SealedTextType, fieldName: 'id_number_sealed', nullable: true },
    idNumberHash: { type: 'string', length: 47, nullable: true },
    kycStatus: { type: 'string', length: 10 },
    kycReason: { type: 'text', nullable: true },
    nextCheckAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
    updatedAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
