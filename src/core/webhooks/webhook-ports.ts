import type { KeysetPage } from '../shared/keyset-page';
import type { WebhookEventEntry, WebhookRegistration, DeliveryStatus } from './webhook';

/** Filters and page of the event log (OpenAPI listWebhookEvents; docs/decisions.md § Webhooks). */
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
  /**
   * Inserts `registration` if `admits(existing, tenantLimit)` says so, where `existing` counts the
   * tenant's registrations that are not deleted and `tenantLimit` is its `webhookLimit` (null: the
   * default). Counts and inserts while holding the tenant's row lock, so concurrent calls see each
   * other's inserts. Returns whether it inserted.
   */
  insertUnderCap(registration: WebhookRegistration, admits: (existing: number, tenantLimit: number | null) => boolean): Promise<boolean>;
  /** Active and disabled registrations of the tenant, oldest first; deleted ones are excluded. */
  listForTenant(tenantId: string): Promise<WebhookRegistration[]>;
  /** Marks deleted; returns false when the tenant has no such registration. */
  delete(tenantId: string, webhookId: string, now: Date): Promise<boolean>;
  /**
   * One page of the tenant's event log, newest first; `nextCursor` is set when more entries follow.
   * Returns `'bad_cursor'` (not an error Result) when `query.cursor` cannot be decoded; the use case
   * turns that into `validation_error` on field `cursor`.
   */
  listEvents(tenantId: string, query: EventLogQuery): Promise<KeysetPage<WebhookEventEntry> | 'bad_cursor'>;
  /** One entry of the tenant's event log by its id (a uuid); undefined when the tenant has no such entry. */
  findEvent(tenantId: string, deliveryId: string): Promise<WebhookEventEntry | undefined>;
  /** Schedules one entry for delivery now; undefined when the tenant has no such entry. */
  retryEvent(tenantId: string, deliveryId: string, now: Date): Promise<WebhookEventEntry | undefined>;
}

/** Port: decides whether a URL may receive webhooks (docs/decisions.md § Webhooks: no private, loopback, link-local or metadata targets). */
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

/** What one claim may take (see DeliveryQueue.claimDue). */
export interface ClaimRequest {
  readonly now: Date;
  /** Most deliveries to claim. */
  readonly limit: number;
  /** Until when the claimed rows are leased to this worker (a crashed worker's rows come due again then). */
  readonly leaseUntil: Date;
  /** Most deliveries of a registration not listed in `room` this claim may take (WEBHOOK_ENDPOINT_CONCURRENCY). */
  readonly perRegistration: number;
  /**
   * Room left, by registration id, in the lanes this process already holds deliveries for (sending
   * or waiting for a slot): at most that many rows of the registration, none when it is 0 or less.
   */
  readonly room: ReadonlyMap<string, number>;
  /** WEBHOOK_ORDER_WAIT_MS: how long a later event of an entity waits for an earlier one, in ms (see claimDue). */
  readonly orderWaitMs: number;
}

/** One attempt's result, for the attempt it belongs to (see DeliveryQueue.recordAll). */
export interface AttemptRecord extends DeliveryRecord {
  readonly id: string;
  /** The attempt number the row was claimed at; a row that moved on since (its lease ran out and another worker claimed it) is left alone. */
  readonly attempt: number;
}

/** Port: the delivery queue (transactional outbox rows, claimed FOR UPDATE SKIP LOCKED). */
export interface DeliveryQueue {
  /**
   * Claims due pending deliveries, oldest due first, leasing them until `leaseUntil` and counting
   * the attempt. Two rules decide what is claimable (docs/decisions.md § Webhooks):
   * - per endpoint: at most `room[registration]` rows of a registration this process already
   *   holds deliveries for (none when that is 0 or less), at most `perRegistration` of any other,
   *   so a hanging endpoint holds only its own lane;
   * - in order: a delivery waits while an earlier event (older `createdAt`) of the same entity to
   *   the same registration is still pending (scheduled for a retry or in flight), unless the
   *   delivery was created `orderWaitMs` or more before `now`: then it goes anyway, so one dead
   *   delivery delays the stream by at most that long and never blocks it for good.
   */
  claimDue(request: ClaimRequest): Promise<DeliveryJob[]>;
  /**
   * Records the results of several attempts in one write, each only if its row is still at its
   * `attempt` (a lease that ran out lost it). A null lastError keeps the previous one, so a
   * delivered entry still shows why earlier attempts failed. Throws when the write fails (none of
   * the batch is recorded then; the leases bring the rows back).
   */
  recordAll(records: readonly AttemptRecord[]): Promise<void>;
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
