import type { AttemptRecord } from './webhook-ports';

/** Most attempt results one write carries (a bound on the statement's size, not a tuning knob). */
export const MAX_RECORDS_PER_WRITE = 500;

interface Queued {
  readonly record: AttemptRecord;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Records attempt results in batches (docs/decisions.md § Performance, webhook deliveries): one
 * write runs at a time; the results that arrive while it runs go together in the next one. A
 * lone result is written at once (after the current microtasks, so results of one turn share a
 * write), so batching adds no wait when the worker is quiet and saves round trips when it is busy.
 * `record` resolves once its result is written and rejects with the write's error when the write
 * fails (none of that batch is recorded then; the rows' leases bring them back).
 */
export class AttemptRecorder {
  private queued: Queued[] = [];
  private writing = false;

  /** `write` stores a batch of results in one statement (DeliveryQueue.recordAll). */
  constructor(private readonly write: (records: readonly AttemptRecord[]) => Promise<void>, private readonly maxPerWrite = MAX_RECORDS_PER_WRITE) {}

  /** Queues one attempt's result; resolves when it is written. */
  record(record: AttemptRecord): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queued.push({ record, resolve, reject });
      if (!this.writing) {
        this.writing = true;
        queueMicrotask(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    while (this.queued.length > 0) {
      const batch = this.queued.splice(0, this.maxPerWrite);
      try {
        await this.write(batch.map((q) => q.record));
        for (const q of batch) q.resolve();
      } catch (error) {
        for (const q of batch) q.reject(error);
      }
    }
    this.writing = false;
  }
}
