import { EntitySchema } from '@mikro-orm/core';
import { Payment } from '../../../core/payments/payment';
import { PAYMENT_FAILURE_CODES } from '../../../core/payments/payment-failure';
import { PlainDecimalType } from './plain-decimal.type';
import { SealedTextType } from './sealed-text.type';

/**
 * The check on `failure_code` (migration 20261126190000): one of PAYMENT_FAILURE_CODES, present
 * exactly when the payment is failed or refunded.
 */
export const FAILURE_CODE_CHECK = `(failure_code is null or failure_code in (${PAYMENT_FAILURE_CODES.map((c) => `'${c}'`).join(', ')}))`
  + " and ((status in ('failed', 'refunded')) = (failure_code is not null))";

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
    // A closed set, and set exactly on failed and refunded payments (docs/decisions.md § Payments: failure codes).
    { name: 'payments_failure_code_check', expression: FAILURE_CODE_CHECK },
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
    failureCode: { type: 'string', length: 40, nullable: true },
    nextActionAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    attempts: { type: 'integer', default: 0 },
    acceptedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
    updatedAt: { type: 'Date', columnType: 'timestamptz' },
    // How it was priced (docs/decisions.md § FX quotes: pricing records); null on older payments.
    pricing: { type: 'json', columnType: 'jsonb', nullable: true },
  },
});
