import type { Logger } from 'pino';
import { processDuePayments, type AdvanceDeps } from '../../core/payments/advance-payment';

/** Settings of the payout worker loop (WORKER_* configuration). */
export interface PayoutWorkerOptions {
  /** Idle wait between polls, in milliseconds. */
  readonly pollIntervalMs: number;
  /** Most payments claimed per pass. */
  readonly batchSize: number;
}

/**
 * Drives payments through the payout provider (DESIGN.md 5): claims due payments with
 * FOR UPDATE SKIP LOCKED, so any number of workers and replicas can run on one database, and
 * payments a crash left behind come due again when their lease ends. `wake()` shortens the idle
 * wait when a new payment commits in this process.
 */
export class PayoutWorker {
  private running = false;
  private loop?: Promise<void>;
  private wakeUp?: () => void;
  /** When the last pass finished (a heartbeat for /health), or undefined before the first. */
  lastPassAt?: Date;

  constructor(
    private readonly deps: AdvanceDeps,
    private readonly options: PayoutWorkerOptions,
    private readonly logger: Logger,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Ends the loop after the current pass; resolves when it has ended. */
  async stop(): Promise<void> {
    this.running = false;
    this.wakeUp?.();
    await this.loop;
  }

  wake(): void {
    this.wakeUp?.();
  }

  private async run(): Promise<void> {
    while (this.running) {
      let claimed = 0;
      try {
        claimed = await processDuePayments(this.deps, this.options.batchSize);
        this.lastPassAt = new Date();
      } catch (error) {
        this.logger.error({ err: error }, 'payout worker pass failed');
      }
      if (this.running && claimed < this.options.batchSize) await this.idle();
    }
  }

  private idle(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeUp = undefined;
        resolve();
      };
      const timer = setTimeout(done, this.options.pollIntervalMs);
      this.wakeUp = done;
    });
  }
}
