import { EntitySchema } from '@mikro-orm/core';
import type { ProviderEvent } from '../../../core/payments/provider-event';
import { SealedTextType } from './sealed-text.type';

/**
 * Table `provider_events`: every verified provider callback, raw, for audit (docs/decisions.md
 * § Payout providers: callbacks). The body is sealed at rest like other personal data (§ Personal
 * data and secrets); the ids beside it are not personal.
 */
export const ProviderEventSchema = new EntitySchema<ProviderEvent & { rawBody: string }>({
  name: 'ProviderEvent',
  tableName: 'provider_events',
  indexes: [{ name: 'provider_events_payment_idx', properties: ['paymentId', 'receivedAt'] }],
  properties: {
    id: { type: 'uuid', primary: true },
    provider: { type: 'string', length: 32 },
    paymentId: { type: 'string', length: 40, nullable: true },
    providerEventId: { type: 'string', length: 200, nullable: true },
    outcome: { type: 'string', length: 20, nullable: true },
    verdict: { type: 'string', length: 40 },
    rawBody: { type: SealedTextType, fieldName: 'raw_body_sealed' },
    receivedAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
