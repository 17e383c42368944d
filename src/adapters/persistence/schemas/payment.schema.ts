import { EntitySchema } from '@mikro-orm/core';
import { Payment } from '../../../core/payments/payment';
import { PlainDecimalType } from './plain-decimal.type';
import { SealedTextType } from './sealed-text.type';

/** Table `payments` (docs/decisions.md § Payments: states and events). The partial index on next_action_at feeds the payout worker's claim. */
export const PaymentSchema = new EntitySchema<Payment>({
  class: Payment,
  tableName: 'payments',
  indexes: [
    { name: 'payments_due_idx', properties: ['nextActionAt'], expression: 'create index "payments_due_idx" on "payments" ("next_action_at") where "next_action_at" is not null' },
    { name: 'payments_tenant_created_idx', properties: ['tenantId', 'createdAt'] },
    // The reconciliation worker's look for payments stuck in provider_accepted (docs/decisions.md § Reconciliation).
    { name: 'payments_accepted_idx', properties: ['acceptedAt'], expression: 'create index "payments_accepted_idx" on "payments" ("accepted_at") where "status" = \'provider_accepted\'' },
  ],
  checks: [
    { name: 'payments_status_check', expression: "status in ('initiated', 'provider_accepted', 'succeeded', 'failed', 'refunded')" },
    { name: 'payments_amounts_positive_check', expression: 'amount_stablecoin > 0 and fiat_amount > 0 and payout_fee >= 0' },
  ],
  uniques: [{ name: 'payments_tenant_reference_unique', properties: ['tenantId', 'reference'] }],
  properties: {
    id: { type: 'string', primary: true, length: 40 },
    tenantId: { type: 'string', length: 40 },
    status: { type: 'string', length: 20 },
    paymentMethod: { type: 'string', length: 10 },
    sourceCurrency: { type: 'string', length: 4 },
    destinationCurrency: { type: 'string', length: 3 },
    country: { type: 'string', length: 2 },
    blockchain: { type: 'string', length: 10 },
    amountStablecoin: { type: PlainDecimalType },
    fiatAmount: { type: PlainDecimalType },
    exchangeRate: { type: PlainDecimalType },
    payoutFee: { type: PlainDecimalType },
    // Sealed at rest (docs/decisions.md § Personal data and secrets). Nullable only until the start-up
    // backfill has sealed the rows written in clear before (their old columns are emptied then).
    accountName: { type: SealedTextType, fieldName: 'account_name_sealed', nullable: true },
    accountNumber: { type: SealedTextType, fieldName: 'account_number_sealed', nullable: true },
    paymentCode: { type: 'string', length: 20 },
    businessNumber: { type: 'string', length: 6, nullable: true },
    reference: { type: 'string', length: 128, nullable: true },
    refundAddress: { type: 'string', length: 64 },
    optionalIssuerFee: { type: 'string', length: 3 },
    quoteId: { type: 'string', length: 40, nullable: true },
    providerRef: { type: 'string', length: 100, nullable: true },
    provider: { type: 'string', length: 32, nullable: true },
    submittedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    failureReason: { type: 'text', nullable: true },
    nextActionAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    attempts: { type: 'integer', default: 0 },
    acceptedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
    updatedAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
