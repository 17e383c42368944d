import { EntitySchema } from '@mikro-orm/core';
import type { OnchainRefund } from '../../../core/refunds/onchain-refund';
import { PlainDecimalType } from './plain-decimal.type';

/**
 * Table `onchain_refunds` (docs/decisions.md § Ledger): what live payments that failed or were
 * reversed after acceptance owe their issuer, one per payment, `pending` until an operator records
 * the transaction hash, or sent from a hot wallet (docs/decisions.md § Refunds). The partial index serves the pending list and its metric.
 */
export const OnchainRefundSchema = new EntitySchema<OnchainRefund>({
  name: 'OnchainRefund',
  tableName: 'onchain_refunds',
  uniques: [{ name: 'onchain_refunds_payment_unique', properties: ['paymentId'] }],
  indexes: [{
    name: 'onchain_refunds_pending_idx', properties: ['createdAt'],
    expression: 'create index "onchain_refunds_pending_idx" on "onchain_refunds" ("created_at") where "status" = \'pending\'',
  }],
  checks: [
    { name: 'onchain_refunds_status_check', expression: "status in ('pending', 'broadcast', 'confirmed', 'failed', 'sent')" },
    { name: 'onchain_refunds_tx_hash_check', expression: "(status in ('broadcast', 'confirmed', 'sent')) = (tx_hash is not null) or status = 'failed'" },
    { name: 'onchain_refunds_sent_check', expression: "(status in ('confirmed', 'sent')) = (sent_at is not null)" },
    { name: 'onchain_refunds_amount_positive_check', expression: 'amount > 0' },
    {
      name: 'onchain_refunds_failure_reason_check',
      expression: "failure_reason is null or (failure_reason in ('invalid_address', 'own_address', 'amount_not_representable', 'reverted') and status = 'failed')",
    },
  ],
  properties: {
    id: { type: 'string', primary: true, length: 40 },
    paymentId: { type: 'string', length: 40 },
    tenantId: { type: 'string', length: 40 },
    amount: { type: PlainDecimalType },
    currency: { type: 'string', length: 4 },
    blockchain: { type: 'string', length: 10 },
    refundAddress: { type: 'string', length: 64 },
    status: { type: 'string', length: 10 },
    txHash: { type: 'string', length: 90, nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
    sentAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    // Why it is failed (docs/decisions.md § Refunds: refusals); null otherwise.
    failureReason: { type: 'string', length: 30, nullable: true },
  },
});
