import type { Logger } from 'pino';

/** Settings of a polling worker loop. */
export interface PollingWorkerOptions {
  /** Idle wait between passes that found less than a full batch, in milliseconds. */
  readonly pollIntervalMs: number;
  /** Most items one pass claims; a full batch means more may be due, so the next pass starts at once. */
  readonly batchSize: number;
  /**
   * Work the passes started but did not wait for (the webhook worker's sends in flight): `stop()`
   * awaits it after the last pass, for at most `drainTimeoutMs` (default 5000 ms).
   */
  readonly drain?: () => Promise<void>;
  /** Longest `stop()` waits for `drain`, in ms (default 5000); what still runs then is the owner's to cut short. */
  readonly drainTimeoutMs?: number;
  /**
   * Milliseconds until the queue's next row falls due (undefined: none pending). When given, the
   * idle wait lasts until then instead of `pollIntervalMs`, at least `pollIntervalMs` and at most
   * `maxIdleMs`, and `wake()` (a local commit or a NOTIFY from another replica) cuts it short: an
   * idle worker makes about two statements per `maxIdleMs` (docs/decisions.md § Performance).
   */
  readonly untilNextDueMs?: () => Promise<number | undefined>;
  /** Longest idle wait with `untilNextDueMs`, in ms (a safety net for a lost notification). */
  readonly maxIdleMs?: number;
}

/**
 * Runs `pass` in a loop (docs/decisions.md § Payments: states and events and § Webhooks): each pass claims due rows with FOR UPDATE SKIP LOCKED,
 * so any number of workers and replicas share the work, and rows a crashed worker leased come due
 * again when the lease ends. `wake()` cuts the idle wait short when this process just committed
 * new work. A failing pass is logged and retried after the idle wait.
 */
export class PollingWorker {
  private running = false;
  private loop?: Promise<void>;
  private wakeUp?: () => void;
  private woken = false;
  private lastPass?: Date;
  /** True while the loop sleeps after a pass that succeeded: waiting for work, not stuck. */
  private resting = false;

  /**
   * A heartbeat for /health: when the last pass finished, or now while the loop sleeps after a
   * successful pass (with `untilNextDueMs` it may sleep for `maxIdleMs`, and a sleeping loop is
   * waiting for work, not stuck); undefined before the first pass.
   */
  get lastPassAt(): Date | undefined {
    return this.lastPass && this.resting ? new Date() : this.lastPass;
  }

  constructor(
    readonly name: string,
    private readonly pass: (batchSize: number) => Promise<number>,
    private readonly options: PollingWorkerOptions,
    private readonly logger: Logger,
  ) {}

  /** Whether the loop runs. */
  get isRunning(): boolean {
    return this.running;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /**
   * Ends the loop after the current pass; resolves when it has ended and the work it left running
   * has drained, or the drain's time is up (what is still running then is the owner's to cut short).
   */
  async stop(): Promise<void> {
    this.running = false;
    this.wakeUp?.();
    await this.loop;
    if (!this.options.drain) return;
    let timer: NodeJS.Timeout | undefined;
    const timeUp = new Promise<void>((resolve) => { timer = setTimeout(resolve, this.options.drainTimeoutMs ?? 5_000); });
    await Promise.race([this.options.drain(), timeUp]);
    clearTimeout(timer);
  }

  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  private async run(): Promise<void> {
    while (this.running) {
      let claimed = 0;
      let passed = false;
      this.woken = false;
      try {
        claimed = await this.pass(this.options.batchSize);
        this.lastPass = new Date();
        passed = true;
      } catch (error) {
        this.logger.error({ err: error, worker: this.name }, 'worker pass failed');
      }
      if (!this.running || claimed >= this.options.batchSize || this.woken) continue;
      const waitMs = await this.idleWaitMs();
      // A wake during the look-up means new work: no sleeping through it.
      if (this.running && !this.woken) {
        this.resting = passed;
        await this.idle(waitMs);
        this.resting = false;
      }
    }
  }

  /** How long to sleep: the poll interval, or until the next row is due within [pollIntervalMs, maxIdleMs]. */
  private async idleWaitMs(): Promise<number> {
    const { pollIntervalMs, untilNextDueMs, maxIdleMs } = this.options;
    if (!untilNextDueMs) return pollIntervalMs;
    const max = Math.max(pollIntervalMs, maxIdleMs ?? pollIntervalMs);
    try {
      const until = await untilNextDueMs();
      return until === undefined ? max : Math.min(max, Math.max(pollIntervalMs, until));
    } catch (error) {
      this.logger.error({ err: error, worker: this.name }, 'worker could not read its next due time');
      return pollIntervalMs;
    }
  }

  private idle(waitMs: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeUp = undefined;
        resolve();
      };
      const timer = setTimeout(done, waitMs);
      this.wakeUp = done;
    });
  }
}
