import { AttemptRecorder } from '../../src/core/webhooks/attempt-recorder';
import type { AttemptRecord } from '../../src/core/webhooks/webhook-ports';

const result = (id: string): AttemptRecord => ({ id, attempt: 1, status: 'delivered', lastError: null, nextRetryAt: null, now: new Date('2026-01-01T00:00:00Z') });

/** Attempt results written in batches (docs/decisions.md § Performance, webhook deliveries). */
describe('AttemptRecorder', () => {
  it('writes a lone result at once, and the results queued during a write together in the next one', async () => {
    const writes: string[][] = [];
    let finishFirst!: () => void;
    const recorder = new AttemptRecorder(async (records) => {
      writes.push(records.map((r) => r.id));
      if (writes.length === 1) await new Promise<void>((resolve) => { finishFirst = resolve; });
    });
    const first = recorder.record(result('a'));
    await Promise.resolve();
    expect(writes).toEqual([['a']]);
    const later = [recorder.record(result('b')), recorder.record(result('c'))];
    finishFirst();
    await Promise.all([first, ...later]);
    expect(writes).toEqual([['a'], ['b', 'c']]);
  });

  it('splits a queue longer than the most one write carries', async () => {
    const writes: number[] = [];
    const recorder = new AttemptRecorder(async (records) => void writes.push(records.length), 2);
    await Promise.all(['a', 'b', 'c', 'd', 'e'].map((id) => recorder.record(result(id))));
    expect(writes).toEqual([2, 2, 1]);
  });

  it('rejects every result of a failed write, and writes the next ones', async () => {
    let fail = true;
    const written: string[] = [];
    const recorder = new AttemptRecorder(async (records) => {
      if (fail) throw new Error('db down');
      written.push(...records.map((r) => r.id));
    });
    const outcomes = await Promise.allSettled([recorder.record(result('a')), recorder.record(result('b'))]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    await recorder.record(result('c'));
    expect(written).toEqual(['c']);
  });
});
