import pino from 'pino';
import { PollingWorker } from '../../src/adapters/workers/polling-worker';

const logger = pino({ level: 'silent' });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('PollingWorker idle waits (docs/decisions.md § Performance)', () => {
  it('with nothing due, sleeps through its poll interval until woken, then passes at once', async () => {
    let passes = 0;
    let lookups = 0;
    const worker = new PollingWorker('t', async () => (passes++, 0), {
      pollIntervalMs: 10, batchSize: 5, maxIdleMs: 60_000, untilNextDueMs: async () => (lookups++, undefined),
    }, logger);
    worker.start();
    await sleep(300);
    // A 10 ms poll would have made about 30 passes by now.
    expect(passes).toBe(1);
    expect(lookups).toBe(1);
    worker.wake();
    await sleep(50);
    expect(passes).toBe(2);
    await worker.stop();
  });

  it('wakes by itself when the next row falls due', async () => {
    let passes = 0;
    const worker = new PollingWorker('t', async () => (passes++, 0), {
      pollIntervalMs: 10, batchSize: 5, maxIdleMs: 60_000, untilNextDueMs: async () => (passes === 1 ? 100 : undefined),
    }, logger);
    worker.start();
    await sleep(30);
    expect(passes).toBe(1);
    await sleep(250);
    expect(passes).toBe(2);
    await worker.stop();
  });

  it('without a due-time reader, polls every interval as before', async () => {
    let passes = 0;
    const worker = new PollingWorker('t', async () => (passes++, 0), { pollIntervalMs: 10, batchSize: 5 }, logger);
    worker.start();
    await sleep(200);
    await worker.stop();
    expect(passes).toBeGreaterThan(3);
  });
});

describe('PollingWorker heartbeat', () => {
  it('reads as alive while it sleeps after a pass, and as its last pass while a pass hangs', async () => {
    let passes = 0;
    let hang!: () => void;
    const worker = new PollingWorker('t', async () => {
      passes += 1;
      if (passes === 2) await new Promise<void>((r) => { hang = r; });
      return 0;
    }, { pollIntervalMs: 10, batchSize: 5, maxIdleMs: 60_000, untilNextDueMs: async () => undefined }, pino({ level: 'silent' }));
    worker.start();
    await new Promise((r) => setTimeout(r, 200));
    expect(Date.now() - worker.lastPassAt!.getTime()).toBeLessThan(50);
    worker.wake();
    await new Promise((r) => setTimeout(r, 200));
    // The second pass hangs: the heartbeat stays at the end of the first.
    expect(Date.now() - worker.lastPassAt!.getTime()).toBeGreaterThanOrEqual(150);
    hang();
    await worker.stop();
  });
});
