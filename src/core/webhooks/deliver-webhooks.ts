import type { Clock } from '../shared/clock';
import { classifyResponse, nextRetryDelayMs } from './delivery-policy';
import type { DeliveryJob, DeliveryQueue, WebhookTransport } from './webhook-ports';

/** What the webhook delivery worker needs: the queue, the transport and the delivery settings. */
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
  /** WEBHOOK_ENDPOINT_CONCURRENCY: most sends to one registration in flight at once in this process. */
  readonly perEndpoint: number;
  /** WEBHOOK_MAX_IN_FLIGHT: most attempts in flight in this process, all endpoints together. */
  readonly maxInFlight: number;
  /** WEBHOOK_ORDER_WAIT_MS: longest a later event of an entity waits for an earlier one to the same registration, in ms. */
  readonly orderWaitMs: number;
  /** Told the outcome of every attempt (for metrics). */
  readonly onAttempt?: (outcome: 'delivered' | 'retry' | 'failed' | 'gone' | 'skipped') => void;
  /**
   * Told when an endpoint's slot frees (its answer came) and when an attempt has settled (recorded,
   * so the entity's next event may go): either way the worker may claim again.
   */
  readonly onSettled?: () => void;
  /** Told of an attempt that threw (recording its outcome failed); its lease brings the delivery back. */
  readonly onFault?: (error: unknown, deliveryId: string) => void;
}

/**
 * Webhook event body (docs/decisions.md § Webhooks): `{"id", "type", "timestamp", "data"}`, the
 * same bytes on every attempt so signatures and the `webhook-id` stay stable.
 */
export function webhookBody(event: DeliveryJob['event']): string {
  return JSON.stringify({ id: event.id, type: event.type, timestamp: event.createdAt.toISOString(), data: event.payload });
}

/**
 * The delivery worker's passes (docs/decisions.md § Webhooks). A pass claims what is due and starts
 * each attempt WITHOUT waiting for it: sends in flight are tracked here, so the next pass can claim
 * for other endpoints while a slow one is still answering. What a pass may claim is decided by the
 * queue's claim (DeliveryQueue.claimDue): at most `perEndpoint` sends per registration in flight,
 * and events of one entity to one registration in order (a later one waits for an earlier pending
 * one, at most `orderWaitMs`). At-least-once still holds: a claimed row is leased, so the rows of a
 * process that dies mid-send come due again when the lease ends.
 */
export class DeliveryDispatcher {
  private readonly running = new Set<Promise<void>>();
  private readonly perRegistration = new Map<string, number>();

  constructor(private readonly deps: DeliveryDeps) {}

  /** Sends in flight. */
  get inFlight(): number {
    return this.running.size;
  }

  /**
   * One pass: claims up to `batchSize` deliveries, fewer when that would take this process over
   * `maxInFlight` attempts, and starts them. Returns how many it claimed.
   */
  async pass(batchSize: number): Promise<number> {
    const limit = Math.min(batchSize, this.deps.maxInFlight - this.running.size);
    if (limit <= 0) return 0;
    const now = this.deps.clock.now();
    const jobs = await this.deps.queue.claimDue({
      now, limit, leaseUntil: new Date(now.getTime() + this.deps.leaseMs),
      perRegistration: this.deps.perEndpoint, inFlight: this.perRegistration, orderWaitMs: this.deps.orderWaitMs,
    });
    for (const job of jobs) this.start(job);
    return jobs.length;
  }

  /** Resolves when no send is in flight (a graceful stop awaits it, bounded by its caller). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }

  private start(job: DeliveryJob): void {
    const lane = job.registrationId;
    this.perRegistration.set(lane, (this.perRegistration.get(lane) ?? 0) + 1);
    let holding = true;
    // The endpoint's slot is freed as soon as it has answered: recording the outcome is our work, not its.
    const freeSlot = () => {
      if (!holding) return;
      holding = false;
      const left = (this.perRegistration.get(lane) ?? 1) - 1;
      if (left > 0) this.perRegistration.set(lane, left);
      else this.perRegistration.delete(lane);
      this.deps.onSettled?.();
    };
    const run: Promise<void> = attempt(this.deps, job, freeSlot)
      .catch((error: unknown) => this.deps.onFault?.(error, job.id))
      .finally(() => {
        this.running.delete(run);
        freeSlot();
        this.deps.onSettled?.();
      });
    this.running.add(run);
  }
}

/** One attempt: send (unless the registration is gone), `sent()`, then record the outcome. */
async function attempt(deps: DeliveryDeps, job: DeliveryJob, sent: () => void): Promise<void> {
  if (!job.registrationActive) {
    sent();
    deps.onAttempt?.('skipped');
    await deps.queue.record(job.id, job.attempt, {
      status: 'failed', lastError: 'registration disabled or deleted', nextRetryAt: null, now: deps.clock.now(),
    });
    return;
  }
  const answer = await deps.transport.send(job, webhookBody(job.event), deps.clock.now());
  sent();
  const now = deps.clock.now();
  const outcome = 'error' in answer ? { kind: 'retry' as const, error: answer.error } : classifyResponse(answer.statusCode, answer.retryAfterMs);
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
