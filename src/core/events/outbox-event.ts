/** Event types a webhook registration may subscribe to (docs/decisions.md § Webhooks). */
export const WEBHOOK_EVENT_TYPES = [
  'payment.processing',
  'payment.succeeded',
  'payment.failed',
  'payment.refunded',
  'customer.kyc.updated',
  'deposit.detected',
  'deposit.credited',
  'deposit.dropped',
  'deposit.held',
  'deposit.rejected',
  'refund.pending',
  'refund.confirmed',
  'refund.failed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Payment event types; `payment.initiated` is internal (history, live updates), never a webhook. */
export type PaymentEventType = 'payment.initiated' | Extract<WebhookEventType, `payment.${string}`>;
export type OutboxEventType = PaymentEventType | Exclude<WebhookEventType, `payment.${string}`>;

/**
 * A row of the transactional outbox (docs/decisions.md § Payments: states and events and § Webhooks): written in the same transaction as the
 * state change it reports. `id` is a uuid; `payload` is the resource as the REST API returns it.
 */
export interface OutboxEvent {
  readonly id: string;
  readonly tenantId: string;
  readonly type: OutboxEventType;
  /** Id of the entity concerned, e.g. a `pay_` id. */
  readonly entityId: string;
  readonly payload: Readonly<Record<string, unknown>>;
  readonly createdAt: Date;
}

/** Port: appends events to the outbox inside the caller's transaction. */
export interface OutboxWriter {
  append(event: OutboxEvent): Promise<void>;
}
