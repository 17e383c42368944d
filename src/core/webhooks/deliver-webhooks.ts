import type { Clock } from '../shared/clock';
import { classifyResponse, nextRetryDelayMs } from './delivery-policy';
import { AttemptRecorder } from './attempt-recorder';
import type { DeliveryJob, DeliveryQueue, DeliveryRecord, WebhookTransport } from './webhook-ports';

/** What the webhook delivery worker needs: the queue, the transport and the delivery settings. */
export interface DeliveryDeps {
  readonly queue: DeliveryQueue;
  readonly transport: WebhookTransport;
  readonly clock: Clock;
  /** Wait before each attempt in milliseconds (DEFAULT_RETRY_SCHEDULE_MS unless configured). */
  readonly schedule: readonly number[];
  /** How long a claimed delivery stays leased, in milliseconds; must exceed three send timeouts (a waiting delivery starts within two, see WAITING_PER_SLOT). */
  readonly leaseMs: number;
  /** Uniform random in [0, 1), for jitter. */
  readonly random: () => number;
  /** WEBHOOK_ENDPOINT_CONCURRENCY: most sends to one registration in flight at once in this process. */
  readonly perEndpoint: number;
  /** WEBHOOK_MAX_IN_FLIGHT: most deliveries this process holds (sending, or claimed and waiting for their lane's slot), all endpoints together. */
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
 * An answer at least this fast (in ms) marks an endpoint as answering: its lane may then hold
 * deliveries waiting for a slot (see DeliveryDispatcher). A second is far above any healthy
 * receiver's answer and far below the 15 s timeout of a hanging one.
 */
export const ANSWERING_WITHIN_MS = 1_000;

/**
 * How many claimed deliveries an answering lane holds waiting for a slot, as a multiple of
 * `perEndpoint`. Even if the endpoint starts hanging, its lane falls back to `perEndpoint` slots
 * once the sends in flight time out, so a waiting delivery starts within two send timeouts and
 * ends within three, before its lease (four) does.
 */
export const WAITING_PER_SLOT = 2;

/**
 * Most sends an answering lane may have in flight, as a multiple of `perEndpoint`: its slots grow
 * by one per fast answer while deliveries wait, up to this, and fall back to `perEndpoint` at the
 * first slow answer or transport error.
 */
export const MAX_SLOTS_PER_ENDPOINT = 4;

/** One registration's deliveries in this process: sends in flight and claimed ones waiting for a slot. */
interface Lane {
  sending: number;
  readonly waiting: DeliveryJob[];
  /** The last answer came within ANSWERING_WITHIN_MS (a transport error or a slow answer clears it). */
  answering: boolean;
  /** Sends it may have in flight: `perEndpoint`, more while it answers fast and has deliveries waiting. */
  slots: number;
  /** When its last answer came (ms since the epoch, the deps' clock); an idle lane is forgotten LANE_MEMORY_MS after it. */
  lastAnswerAt: number;
}

/** How long an idle lane's answering state is kept after its last answer, in ms (the next burst starts where the last ended). */
export const LANE_MEMORY_MS = 60_000;

/**
 * The delivery worker's passes (docs/decisions.md § Webhooks and § Performance). A pass claims what
 * is due and starts each attempt WITHOUT waiting for it, so the next pass can claim for other
 * endpoints while a slow one is still answering. Each registration is a lane with `perEndpoint`
 * sends in flight at most. While its endpoint answers within ANSWERING_WITHIN_MS, the lane also
 * holds up to WAITING_PER_SLOT × `perEndpoint` claimed deliveries waiting, in claim order, to start
 * the moment a slot frees, and its slots grow with each fast answer while deliveries wait (up to
 * MAX_SLOTS_PER_ENDPOINT × `perEndpoint`): one claim then feeds an endpoint for as long as the next
 * claim takes, so a fast endpoint is paced by its own answers rather than by the claim's round
 * trip. The first slow answer or transport error puts the lane back to `perEndpoint` sends and no
 * waiting ones; a lane that never answered fast (new, hanging, failing) holds only its sends. The process holds at most `maxInFlight`
 * deliveries, sending or waiting. Results are written in batches (AttemptRecorder). What a pass
 * may claim is decided by the queue's claim (DeliveryQueue.claimDue): each lane's room, and events
 * of one entity to one registration in order (a later one waits for an earlier pending one, at
 * most `orderWaitMs`), so a lane never holds two events of one entity inside the order wait.
 * At-least-once still holds: a claimed row is leased, so the rows of a process that dies
 * mid-send, or before a waiting delivery started, come due again when the lease ends.
 */
export class DeliveryDispatcher {
  private readonly running = new Set<Promise<void>>();
  private readonly lanes = new Map<string, Lane>();
  private readonly recorder: AttemptRecorder;
  private held = 0;

  constructor(private readonly deps: DeliveryDeps) {
    this.recorder = new AttemptRecorder((records) => deps.queue.recordAll(records));
  }

  /** Deliveries this process holds: sends in flight and claimed ones waiting for their lane's slot. */
  get inFlight(): number {
    return this.held;
  }

  /**
   * One pass: claims up to `batchSize` deliveries, fewer when that would take this process over
   * `maxInFlight` held deliveries or a lane over its room, and starts them (or queues them in their
   * lane). Returns how many it claimed.
   */
  async pass(batchSize: number): Promise<number> {
    const limit = Math.min(batchSize, this.deps.maxInFlight - this.held);
    if (limit <= 0) return 0;
    const now = this.deps.clock.now();
    const room = new Map<string, number>();
    for (const [id, lane] of this.lanes) {
      if (lane.sending === 0 && lane.waiting.length === 0 && now.getTime() - lane.lastAnswerAt > LANE_MEMORY_MS) this.lanes.delete(id);
      else room.set(id, this.depth(lane) - lane.sending - lane.waiting.length);
    }
    const jobs = await this.deps.queue.claimDue({
      now, limit, leaseUntil: new Date(now.getTime() + this.deps.leaseMs),
      perRegistration: this.deps.perEndpoint, room, orderWaitMs: this.deps.orderWaitMs,
    });
    for (const job of jobs) this.enqueue(job);
    return jobs.length;
  }

  /** Resolves when no delivery is held (a graceful stop awaits it, bounded by its caller). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }

  private depth(lane: Lane): number {
    return lane.answering ? lane.slots + this.deps.perEndpoint * WAITING_PER_SLOT : this.deps.perEndpoint;
  }

  private enqueue(job: DeliveryJob): void {
    let lane = this.lanes.get(job.registrationId);
    if (!lane) {
      lane = { sending: 0, waiting: [], answering: false, slots: this.deps.perEndpoint, lastAnswerAt: 0 };
      this.lanes.set(job.registrationId, lane);
    }
    this.held++;
    lane.waiting.push(job);
    this.pump(job.registrationId, lane);
  }

  /** Starts the lane's waiting deliveries while it has free slots; forgets an idle lane that does not answer fast. */
  private pump(id: string, lane: Lane): void {
    while (lane.sending < lane.slots && lane.waiting.length > 0) {
      lane.sending++;
      this.start(id, lane, lane.waiting.shift()!);
    }
    if (lane.sending === 0 && lane.waiting.length === 0 && !lane.answering) this.lanes.delete(id);
  }

  private start(id: string, lane: Lane, job: DeliveryJob): void {
    let holding = true;
    // The endpoint's slot is freed as soon as it has answered: recording the outcome is our work, not its.
    const freeSlot = (answering?: boolean) => {
      if (!holding) return;
      holding = false;
      if (answering !== undefined) lane.lastAnswerAt = this.deps.clock.now().getTime();
      if (answering === true) {
        lane.answering = true;
        if (lane.waiting.length > 0) lane.slots = Math.min(lane.slots + 1, this.deps.perEndpoint * MAX_SLOTS_PER_ENDPOINT);
      } else if (answering === false) {
        lane.answering = false;
        lane.slots = this.deps.perEndpoint;
      }
      lane.sending--;
      this.pump(id, lane);
      this.deps.onSettled?.();
    };
    const run: Promise<void> = attempt(this.deps, job, freeSlot, this.recorder)
      .catch((error: unknown) => this.deps.onFault?.(error, job.id))
      .finally(() => {
        this.running.delete(run);
        this.held--;
        freeSlot();
        this.deps.onSettled?.();
      });
    this.running.add(run);
  }
}

/** One attempt: send (unless the registration is gone), `sent(answering)`, then record the outcome. */
async function attempt(deps: DeliveryDeps, job: DeliveryJob, sent: (answering?: boolean) => void, recorder: AttemptRecorder): Promise<void> {
  const record = (result: DeliveryRecord) => recorder.record({ id: job.id, attempt: job.attempt, ...result });
  if (!job.registrationActive) {
    sent();
    deps.onAttempt?.('skipped');
    await record({ status: 'failed', lastError: 'registration disabled or deleted', nextRetryAt: null, now: deps.clock.now() });
    return;
  }
  const startedAt = deps.clock.now();
  const answer = await deps.transport.send(job, webhookBody(job.event), startedAt);
  const now = deps.clock.now();
  sent(!('error' in answer) && now.getTime() - startedAt.getTime() <= ANSWERING_WITHIN_MS);
  const outcome = 'error' in answer ? { kind: 'retry' as const, error: answer.error } : classifyResponse(answer.statusCode, answer.retryAfterMs);
  if (outcome.kind === 'delivered') {
    deps.onAttempt?.('delivered');
    await record({ status: 'delivered', lastError: null, nextRetryAt: null, now });
    return;
  }
  if (outcome.kind === 'gone') {
    deps.onAttempt?.('gone');
    await deps.queue.disableRegistration(job.registrationId, now);
    await record({ status: 'failed', lastError: 'HTTP 410: registration disabled', nextRetryAt: null, now });
    return;
  }
  const delay = nextRetryDelayMs(job.attempt, deps.schedule, deps.random(), outcome.retryAfterMs);
  deps.onAttempt?.(delay === undefined ? 'failed' : 'retry');
  await record(delay === undefined
    ? { status: 'failed', lastError: outcome.error, nextRetryAt: null, now }
    : { status: 'pending', lastError: outcome.error, nextRetryAt: new Date(now.getTime() + delay), now });
}
