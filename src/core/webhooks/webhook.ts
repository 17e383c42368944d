import type { WebhookEventType } from '../events/outbox-event';

/** Lifecycle of a registration: `disabled` after a 410 Gone; deleted registrations are gone from reads. */
export type RegistrationStatus = 'active' | 'disabled';

/**
 * A webhook registration (OpenAPI registerWebhook; docs/decisions.md § Webhooks). `id` is a uuid (the interface's
 * `webhookId`). `events` empty means every event type. The signing secret is kept only encrypted
 * (`secretCiphertext`, AES-256-GCM); it is shown once at registration.
 */
export class WebhookRegistration {
  id!: string;
  tenantId!: string;
  url!: string;
  events!: WebhookEventType[];
  secretCiphertext!: string;
  status!: RegistrationStatus;
  createdAt!: Date;
  updatedAt!: Date;
  deletedAt!: Date | null;

  constructor(props: { [K in keyof WebhookRegistration]: WebhookRegistration[K] }) {
    Object.assign(this, props);
  }
}

/** The one status in which a registration receives events (docs/decisions.md § Webhooks). */
export const RECEIVING_STATUS = 'active' satisfies RegistrationStatus;

/**
 * Whether `registration` receives events at all: active (not disabled after a 410 Gone) and not
 * deleted. The delivery worker skips a claimed delivery whose registration no longer is. Pure.
 */
export function isActiveRegistration(registration: Pick<WebhookRegistration, 'status' | 'deletedAt'>): boolean {
  return registration.status === RECEIVING_STATUS && registration.deletedAt === null;
}

/**
 * Which registration receives which event (docs/decisions.md § Webhooks): an active registration
 * whose `events` list `type`, or is empty (every type). The outbox writer's fan-out SQL states this
 * same rule; a test checks the two agree on a table of cases. Pure.
 */
export function receivesEvent(registration: Pick<WebhookRegistration, 'status' | 'deletedAt' | 'events'>, type: string): boolean {
  return isActiveRegistration(registration) && (registration.events.length === 0 || (registration.events as readonly string[]).includes(type));
}

/** Delivery states (OpenAPI listWebhookEvents): pending until a 2xx (delivered) or the last attempt (failed). */
export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * One event log entry: the delivery of one event to one registration (OpenAPI listWebhookEvents). `id` is the
 * delivery's uuid, sent as `webhook-id` on every attempt. Times are ISO 8601 UTC.
 */
export interface WebhookEventEntry {
  id: string;
  eventId: string;
  eventType: string;
  entityId: string;
  webhookId: string;
  url: string;
  status: DeliveryStatus;
  attempt: number;
  lastError: string | null;
  nextRetryAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A registration as listed (never with its secret). */
export interface WebhookView {
  webhookId: string;
  url: string;
  events: WebhookEventType[];
  status: RegistrationStatus;
  createdAt: string;
}

/** Maps a registration to its listed view. Pure. */
export function toWebhookView(registration: WebhookRegistration): WebhookView {
  return {
    webhookId: registration.id,
    url: registration.url,
    events: registration.events,
    status: registration.status,
    createdAt: registration.createdAt.toISOString(),
  };
}

/** Where webhooks may be sent: WEBHOOK_ALLOW_PRIVATE_TARGETS and WEBHOOK_ALLOWED_PORTS. */
export interface TargetPolicy {
  /** http, private targets and any port allowed (development and tests only). */
  readonly allowPrivateTargets: boolean;
  /** Ports allowed besides 443, e.g. [8443]; empty by default. */
  readonly allowedPorts: readonly number[];
}

/**
 * Why `url`'s port is refused, or undefined when it may be used (docs/decisions.md § Webhooks): 443
 * (https's default) or an operator-listed port, so a registration cannot point the delivery worker
 * at an internal service on a public address (Redis on 6379, an admin console on 8080). Any port
 * when private targets are allowed, since development receivers listen on random ports. Pure.
 */
export function refusedPort(url: URL, policy: TargetPolicy): string | undefined {
  if (policy.allowPrivateTargets) return undefined;
  const port = url.port === '' ? (url.protocol === 'http:' ? 80 : 443) : Number(url.port);
  if (port === 443 || policy.allowedPorts.includes(port)) return undefined;
  return `port ${port} is not allowed (443${policy.allowedPorts.map((p) => `, ${p}`).join('')})`;
}
