import type { KeysetPage } from '../shared/keyset-page';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../events/outbox-event';
import type { Clock, IdGenerator } from '../shared/clock';
import { err, ok, type Result } from '../shared/result';
import { refusedPort, toWebhookView, WebhookRegistration, type WebhookView } from './webhook';
import type { EventLogQuery, SecretBox, TargetGuard, WebhookRepository } from './webhook-ports';
import type { WebhookEventEntry } from './webhook';

/**
 * Closed set of expected failures of the webhook operations. `webhook_limit_reached`: the tenant
 * already has as many registrations as it may (docs/decisions.md § Webhooks).
 */
export type WebhookErrorCode = 'validation_error' | 'not_found' | 'webhook_limit_reached';

export interface WebhookDeps {
  readonly webhooks: WebhookRepository;
  readonly targets: TargetGuard;
  readonly secrets: SecretBox;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS: http and private targets allowed (development and tests only). */
  readonly allowPrivateTargets: boolean;
  /** WEBHOOK_ALLOWED_PORTS: ports a target may use besides 443 (any port when allowPrivateTargets). */
  readonly allowedPorts: readonly number[];
  /** WEBHOOK_MAX_REGISTRATIONS_PER_TENANT: registrations a tenant may have unless its `webhookLimit` says otherwise. */
  readonly maxRegistrationsPerTenant: number;
  /** Called after a retry is scheduled, e.g. to wake the delivery worker. */
  readonly onDeliveryScheduled?: () => void;
}

/** A new registration as returned once (OpenAPI registerWebhook): the only time `secret` is shown. */
export interface RegisteredWebhook {
  webhookId: string;
  url: string;
  events: WebhookEventType[];
  secret: string;
}

const MAX_URL_LENGTH = 2048;

/**
 * Registers a webhook (operationId registerWebhook). `url` must be https on port 443 (or an
 * allow-listed port) and must not point at a private, loopback, link-local, metadata or
 * IPv4-embedding address (all unless allowPrivateTargets); `events` must be known types, empty or
 * absent for all. A tenant has at most its `webhookLimit` registrations (deleted ones do not count),
 * else `maxRegistrationsPerTenant`: the count and the insert happen under the tenant's row lock, so
 * concurrent registrations cannot overshoot (docs/decisions.md § Webhooks).
 * Errors: `validation_error`, `webhook_limit_reached` (nothing written).
 */
export async function registerWebhook(
  deps: WebhookDeps,
  tenantId: string,
  input: { url: string; events?: string[] },
): Promise<Result<RegisteredWebhook, WebhookErrorCode>> {
  let url: URL;
  try {
    url = new URL(input.url);
  } catch {
    return err('validation_error', 'url must be an absolute URL', { field: 'url' });
  }
  if (input.url.length > MAX_URL_LENGTH) return err('validation_error', `url must be at most ${MAX_URL_LENGTH} characters`);
  if (url.username || url.password) return err('validation_error', 'url must not carry credentials', { field: 'url' });
  const schemeOk = url.protocol === 'https:' || (deps.allowPrivateTargets && url.protocol === 'http:');
  if (!schemeOk) return err('validation_error', 'url must use https', { field: 'url' });
  const portRefusal = refusedPort(url, deps);
  if (portRefusal) return err('validation_error', `url is not an allowed target: ${portRefusal}`, { field: 'url' });
  if (!deps.allowPrivateTargets) {
    const refusal = await deps.targets.refusal(url);
    if (refusal) return err('validation_error', `url is not an allowed target: ${refusal}`, { field: 'url' });
  }
  const unknown = (input.events ?? []).filter((e) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(e));
  if (unknown.length > 0) {
    return err('validation_error', `Unknown event types: ${unknown.join(', ')}; known: ${WEBHOOK_EVENT_TYPES.join(', ')}`, { field: 'events' });
  }
  const events = [...new Set(input.events ?? [])] as WebhookEventType[];
  const secret = deps.secrets.newSecret();
  const now = deps.clock.now();
  const registration = new WebhookRegistration({
    id: deps.ids.uuid(), tenantId, url: url.toString(), events, secretCiphertext: deps.secrets.seal(secret),
    status: 'active', createdAt: now, updatedAt: now, deletedAt: null,
  });
  let limit = deps.maxRegistrationsPerTenant;
  const inserted = await deps.webhooks.insertUnderCap(registration, (existing, tenantLimit) => {
    limit = tenantLimit ?? deps.maxRegistrationsPerTenant;
    return existing < limit;
  });
  if (!inserted) {
    return err('webhook_limit_reached', `This tenant may have at most ${limit} webhook registrations: delete one first, or ask an operator to raise its webhookLimit`);
  }
  return ok({ webhookId: registration.id, url: registration.url, events, secret });
}

/** Lists the tenant's registrations, without secrets (beyond the interface, docs/decisions.md § Webhooks). */
export async function listWebhooks(deps: WebhookDeps, tenantId: string): Promise<WebhookView[]> {
  return (await deps.webhooks.listForTenant(tenantId)).map(toWebhookView);
}

/** Deletes a registration; its pending deliveries end `failed`. Errors: `not_found`. */
export async function deleteWebhook(deps: WebhookDeps, tenantId: string, webhookId: string): Promise<Result<void, WebhookErrorCode>> {
  return (await deps.webhooks.delete(tenantId, webhookId, deps.clock.now()))
    ? ok(undefined)
    : err('not_found', `Webhook ${webhookId} not found`);
}

/** One page of the event log, newest first (OpenAPI listWebhookEvents). Errors: `validation_error` for a bad cursor. */
export async function listWebhookEvents(
  deps: WebhookDeps,
  tenantId: string,
  query: EventLogQuery,
): Promise<Result<KeysetPage<WebhookEventEntry>, WebhookErrorCode>> {
  const page = await deps.webhooks.listEvents(tenantId, query);
  return page === 'bad_cursor' ? err('validation_error', 'cursor is not valid', { field: 'cursor' }) : ok(page);
}

/** One entry of the tenant's event log (GraphQL node(id:)). Errors: `not_found` (also another tenant's id). */
export async function getWebhookEvent(deps: WebhookDeps, tenantId: string, deliveryId: string): Promise<Result<WebhookEventEntry, 'not_found'>> {
  const entry = await deps.webhooks.findEvent(tenantId, deliveryId);
  return entry ? ok(entry) : err('not_found', 'Webhook event not found');
}

/** Redelivers one event log entry now (beyond the interface, docs/decisions.md § Webhooks). Errors: `not_found`. */
export async function retryWebhookEvent(
  deps: WebhookDeps,
  tenantId: string,
  deliveryId: string,
): Promise<Result<WebhookEventEntry, WebhookErrorCode>> {
  const entry = await deps.webhooks.retryEvent(tenantId, deliveryId, deps.clock.now());
  if (!entry) return err('not_found', `Webhook event ${deliveryId} not found`);
  deps.onDeliveryScheduled?.();
  return ok(entry);
}
