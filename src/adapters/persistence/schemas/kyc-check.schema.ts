import { EntitySchema } from '@mikro-orm/core';
import type { KycCheck } from '../../../core/customers/kyc-check';
import { SealedTextType } from './sealed-text.type';

/**
 * Table `kyc_checks`: each submission of a customer to a live KYC provider (docs/providers.md
 * § Smile ID), one row per customer, provider and attempt. The provider's final answer carries the
 * ID authority's personal data, so it is sealed at rest (docs/decisions.md § Personal data and secrets).
 */
export const KycCheckSchema = new EntitySchema<KycCheck>({
  name: 'KycCheck',
  tableName: 'kyc_checks',
  properties: {
    customerId: { type: 'string', length: 40, primary: true },
    provider: { type: 'string', length: 32, primary: true },
    attempt: { type: 'integer', primary: true },
    jobRef: { type: 'string', length: 100 },
    state: { type: 'string', length: 12 },
    resultCode: { type: 'string', length: 10, nullable: true },
    rawAnswer: { type: SealedTextType, fieldName: 'raw_answer_sealed', nullable: true },
    submittedAt: { type: 'Date', columnType: 'timestamptz' },
    completedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
  },
});
