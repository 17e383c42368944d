import { EntitySchema } from '@mikro-orm/core';
import type { ProviderEvent } from '../../../core/payments/provider-event';
import { SealedTextType } from './sealed-text.type';

/**
 * Table `provider_events`: every verified provider callback, raw, for audit (docs/decisions.md
 * § Payout providers: callbacks). The body is sealed at rest like other personal data (§ Personal
 * data and secrets); the ids beside it are not personal. Each message is stored once: unique by its
 * keyed content hash, and by the provider's event id with the outcome when there is one. Rows from
 * before the content hash existed (null) take part in neither key.
 */
export const ProviderEventSchema = new EntitySchema<ProviderEvent & { rawBody: string }>({
  name: 'ProviderEvent',
  tableName: 'provider_events',
  indexes: [{ name: 'provider_events_payment_idx', properties: ['paymentId', 'receivedAt'] }],
  uniques: [
    { name: 'provider_events_content_unique', properties: ['provider', 'contentHash'] },
    {
      name: 'provider_events_event_unique', properties: ['provider', 'providerEventId', 'outcome'],
      expression: 'create unique index "provider_events_event_unique" on "provider_events" ("provider", "provider_event_id", coalesce("outcome", \'\')) '
        + 'where "provider_event_id" is not null and "content_hash" is not null',
    },
  ],
  properties: {
    id: { type: 'uuid', primary: true },
    provider: { type: 'string', length: 32 },
    paymentId: { type: 'string', length: 40, nullable: true },
    providerEventId: { type: 'string', length: 200, nullable: true },
    outcome: { type: 'string', length: 20, nullable: true },
    verdict: { type: 'string', length: 40 },
    rawBody: { type: SealedTextType, fieldName: 'raw_body_sealed' },
    contentHash: { type: 'string', length: 64, nullable: true },
    receivedAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
