import type { Clock } from '../shared/clock';
import { classifyResponse, nextRetryDelayMs } from './delivery-policy';
import type { DeliveryJob, DeliveryQueue, WebhookTransport } from './webhook-ports';

export interface DeliveryDeps {
  readonly queue: DeliveryQueue;
  readonly transport: WebhookTransport;
  readonly clock: Clock;
  /** Wait before each attempt in milliseconds (DEFAULT_RETRY_SCHEDULE_MS unless configured). */
  readonly schedule: readonly number[];
  /** How long a claimed delivery stays leased, in milliseconds; must exceed the 15 s send timeout. */
  readonly leaseMs: number;
  /** Uniform random in [0, 1), for jitter. */
  readonly random: () => number;
  /** Told the outcome of every attempt (for metrics). */
  readonly onAttempt?: (outcome: 'delivered' | 'retry' | 'failed' | 'gone' | 'skipped') => void;
}

/**
 * Webhook event body (DESIGN.md 8): `{"id", "type", "timestamp", "data"}`, the same bytes on every
 * attempt so signatures and the `webhook-id` stay stable.
 */
export function webhookBody(event: DeliveryJob['event']): string {
  return JSON.stringify({ id: event.id, type: event.type, timestamp: event.createdAt.toISOString(), data: event.payload });
}

/**
 * One pass of the delivery worker (DESIGN.md 8): claims due deliveries and attempts each once.
 * Deliveries of one entity to one registration go in event order, one after the other, so a
 * receiver sees `payment.processing` before `payment.succeeded`; everything else goes concurrently.
 * Returns how many were claimed.
 */
export async function deliverDueWebhooks(deps: DeliveryDeps, limit: number): Promise<number> {
  const now = deps.clock.now();
  const jobs = await deps.queue.claimDue(now, limit, new Date(now.getTime() + deps.leaseMs));
  const lanes = new Map<string, DeliveryJob[]>();
  for (const job of [...jobs].sort((a, b) => a.event.createdAt.getTime() - b.event.createdAt.getTime())) {
    const lane = `${job.registrationId}:${job.event.entityId}`;
    lanes.set(lane, [...(lanes.get(lane) ?? []), job]);
  }
  await Promise.all([...lanes.values()].map(async (lane) => {
    for (const job of lane) await attempt(deps, job);
  }));
  return jobs.length;
}

async function attempt(deps: DeliveryDeps, job: DeliveryJob): Promise<void> {
  if (!job.registrationActive) {
    deps.onAttempt?.('skipped');
    await deps.queue.record(job.id, job.attempt, {
      status: 'failed', lastError: 'registration disabled or deleted', nextRetryAt: null, now: deps.clock.now(),
    });
    return;
  }
  const sent = await deps.transport.send(job, webhookBody(job.event), deps.clock.now());
  const now = deps.clock.now();
  const outcome = 'error' in sent ? { kind: 'retry' as const, error: sent.error } : classifyResponse(sent.statusCode, sent.retryAfterMs);
  if (outcome.kind === 'delivered') {
    deps.onAttempt?.('delivered');
    await deps.queue.record(job.id, job.attempt, { status: 'delivered', lastError: null, nextRetryAt: null, now });
    return;
  }
  if (outcome.kind === 'gone') {
    deps.onAttempt?.('gone');
    await deps.queue.disableRegistration(job.registrationId, now);
    await deps.queue.record(job.id, job.attempt, { status: 'failed', lastError: 'HTTP 410: registration disabled', nextRetryAt: null, now });
    return;
  }
  const delay = nextRetryDelayMs(job.attempt, deps.schedule, deps.random(), outcome.retryAfterMs);
  deps.onAttempt?.(delay === undefined ? 'failed' : 'retry');
  await deps.queue.record(job.id, job.attempt, delay === undefined
    ? { status: 'failed', lastError: outcome.error, nextRetryAt: null, now }
    : { status: 'pending', lastError: outcome.error, nextRetryAt: new Date(now.getTime() + delay), now });
}
