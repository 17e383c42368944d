import type { WebhookEventEntry, WebhookRegistration, DeliveryStatus } from './webhook';

/** Filters and page of the event log (interface 4.11, DESIGN.md 8). */
export interface EventLogQuery {
  readonly status?: DeliveryStatus;
  readonly eventType?: string;
  readonly entityId?: string;
  /** 1..100. */
  readonly limit: number;
  /** Opaque cursor from a previous page. */
  readonly cursor?: string;
}

/** Port: registrations and the event log, tenant-scoped. */
export interface WebhookRepository {
  insert(registration: WebhookRegistration): Promise<void>;
  /** Active and disabled registrations of the tenant, oldest first; deleted ones are excluded. */
  listForTenant(tenantId: string): Promise<WebhookRegistration[]>;
  /** Marks deleted; returns false when the tenant has no such registration. */
  delete(tenantId: string, webhookId: string, now: Date): Promise<boolean>;
  /** Newest first; `nextCursor` is set when more entries follow. Errors: `validation_error` for a bad cursor. */
  listEvents(tenantId: string, query: EventLogQuery): Promise<{ entries: WebhookEventEntry[]; nextCursor?: string } | 'bad_cursor'>;
  /** Schedules one entry for delivery now; undefined when the tenant has no such entry. */
  retryEvent(tenantId: string, deliveryId: string, now: Date): Promise<WebhookEventEntry | undefined>;
}

/** Port: decides whether a URL may receive webhooks (DESIGN.md 8: no private, loopback, link-local or metadata targets). */
export interface TargetGuard {
  /** A reason to refuse `url`, or undefined when it is acceptable. Resolves the host name. */
  refusal(url: URL): Promise<string | undefined>;
}

/** Port: signing secrets, generated and sealed at rest (AES-256-GCM with a key from configuration). */
export interface SecretBox {
  /** `whsec_` + base64 of 32 random bytes. */
  newSecret(): string;
  seal(secret: string): string;
  open(ciphertext: string): string;
}

/** A delivery claimed by a worker, with what it needs to send. `attempt` counts this attempt. */
export interface DeliveryJob {
  readonly id: string;
  readonly registrationId: string;
  readonly registrationActive: boolean;
  readonly url: string;
  readonly attempt: number;
  readonly secretCiphertext: string;
  readonly event: {
    readonly id: string;
    readonly type: string;
    readonly entityId: string;
    readonly createdAt: Date;
    readonly payload: unknown;
  };
}

/** Port: the delivery queue (transactional outbox rows, claimed FOR UPDATE SKIP LOCKED). */
export interface DeliveryQueue {
  /** Claims due pending deliveries, leasing them until `leaseUntil` and counting the attempt. */
  claimDue(now: Date, limit: number, leaseUntil: Date): Promise<DeliveryJob[]>;
  /** Records an attempt's result, only if the row is still at `attempt` (a lease that ran out lost it). A null lastError keeps the previous one, so a delivered entry still shows why earlier attempts failed. */
  record(id: string, attempt: number, result: DeliveryRecord): Promise<void>;
  disableRegistration(registrationId: string, now: Date): Promise<void>;
}

/** The state a delivery moves to after one attempt. */
export interface DeliveryRecord {
  readonly status: DeliveryStatus;
  readonly lastError: string | null;
  readonly nextRetryAt: Date | null;
  readonly now: Date;
}

/** What sending produced: the receiver's status and Retry-After, or a transport error (timeout, refused). */
export type SendResult =
  | { readonly statusCode: number; readonly retryAfterMs?: number }
  | { readonly error: string };

/** Port: signs and POSTs one delivery (15 s timeout, no redirects, target checked at connect time). */
export interface WebhookTransport {
  send(job: DeliveryJob, body: string, now: Date): Promise<SendResult>;
}
