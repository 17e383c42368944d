import { MikroORM } from '@mikro-orm/postgresql';
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { ormOptions } from '../../src/adapters/persistence/mikro-orm.config';
import { RefundSenderRepository } from '../../src/adapters/persistence/refund-sender.repository';
import { RefundWorker } from '../../src/adapters/workers/refund-worker';
import type { RefundPassOutcome } from '../../src/core/refunds/send-refund';
import type { WalletShortfall } from '../../src/core/refunds/refund-funds';

/**
 * The refunds worker's lease and the hot wallets' shortfall findings on real PostgreSQL
 * (docs/decisions.md § Refunds; docs/operations.md § Refunds): one sender per wallet at a time,
 * a stop hands the wallet over at once, a dead holder's lease runs out; a finding is written
 * once while it stands. Each test uses its own random wallet.
 */
describe('refunds worker lease and findings', () => {
  let orm: MikroORM;
  let wallets: RefundSenderRepository;
  const running: RefundWorker[] = [];
  beforeAll(async () => {
    orm = await MikroORM.init(ormOptions(process.env.TEST_DATABASE_URL!, 4));
    wallets = new RefundSenderRepository(orm.em);
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((w) => w.stop()));
  });
  afterAll(() => orm.close(true));

  const wallet = () => `0x${randomBytes(20).toString('hex')}`;
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const logger = pino({ level: 'silent' });

  /** A worker for `w` whose passes are counted (and answer `outcome`), not sent. */
  function worker(w: string, holder: string, leaseMs = 60_000, outcome: RefundPassOutcome = 'idle') {
    const counted = { passes: 0, outcomes: [] as string[] };
    const refunder = new RefundWorker({
      chain: 'BSC', wallet: w, lease: wallets, holder, leaseMs, intervalMs: 20, logger,
      pass: async () => {
        counted.passes += 1;
        return outcome;
      },
      onOutcome: (o) => counted.outcomes.push(o),
    });
    running.push(refunder);
    return { refunder, counted };
  }
  const until = async (check: () => boolean, ms = 5_000) => {
    const end = Date.now() + ms;
    while (!check()) {
      if (Date.now() > end) throw new Error('timed out');
      await sleep(10);
    }
  };

  it('two workers on one wallet: only the lease holder passes; its stop releases and the other takes over at once', async () => {
    const w = wallet();
    const a = worker(w, 'replica-a');
    a.refunder.start();
    await until(() => a.counted.passes >= 2);
    const b = worker(w, 'replica-b');
    b.refunder.start();
    await sleep(200);
    expect(a.refunder.isHolding).toBe(true);
    expect([b.refunder.isHolding, b.counted.passes]).toEqual([false, 0]);
    // Another wallet is another lease: its worker sends beside them.
    const other = worker(wallet(), 'replica-b');
    other.refunder.start();
    await until(() => other.counted.passes >= 1);

    // A 60 s lease: only the release lets b in this soon.
    await a.refunder.stop();
    const aPasses = a.counted.passes;
    await until(() => b.counted.passes >= 2, 2_000);
    expect(b.refunder.isHolding).toBe(true);
    expect(a.counted.passes).toBe(aPasses);
  });

  it('a holder that dies without releasing: the other takes over once its lease ran out, not before', async () => {
    const w = wallet();
    const a = worker(w, 'replica-a', 1_000);
    a.refunder.start();
    await until(() => a.counted.passes >= 1);
    // Its loop ends and nothing gives the lease up: a crashed process.
    await a.refunder.worker.stop();
    const b = worker(w, 'replica-b', 1_000);
    const diedAt = Date.now();
    b.refunder.start();
    await sleep(300);
    expect(b.counted.passes).toBe(0);
    await until(() => b.counted.passes >= 1, 3_000);
    expect(Date.now() - diedAt).toBeGreaterThanOrEqual(500);
    // Back, the first finds the lease taken.
    expect(await wallets.acquire('BSC', w, 'replica-a', 1_000)).toBe(false);
  });

  it('a pass that made progress is followed at once; an idle one waits the interval', async () => {
    const busy = worker(wallet(), 'replica-a', 60_000, 'broadcast');
    const idle = worker(wallet(), 'replica-a', 60_000, 'idle');
    busy.refunder.start();
    idle.refunder.start();
    await sleep(300);
    // 300 ms at a 20 ms interval: at most ~15 idle passes; progress loops without waiting.
    expect(idle.counted.passes).toBeLessThanOrEqual(16);
    expect(busy.counted.passes).toBeGreaterThan(idle.counted.passes * 2);
    expect(new Set(idle.counted.outcomes)).toEqual(new Set(['idle']));
  });

  it('a failing pass is counted as an error and tried again after the interval, still holding the lease', async () => {
    const w = wallet();
    let calls = 0;
    const outcomes: string[] = [];
    const refunder = new RefundWorker({
      chain: 'SOLANA', wallet: w, lease: wallets, holder: 'replica-a', leaseMs: 60_000, intervalMs: 20, logger,
      pass: async () => {
        calls += 1;
        if (calls === 1) throw new Error('every RPC endpoint down');
        return 'idle';
      },
      onOutcome: (o) => outcomes.push(o),
    });
    running.push(refunder);
    refunder.start();
    await until(() => outcomes.length >= 2);
    expect(outcomes.slice(0, 2)).toEqual(['error', 'idle']);
    expect(await wallets.acquire('SOLANA', w, 'replica-b', 60_000)).toBe(false);
  });

  it('a shortfall finding is written once while it stands, replaced when what is lacking changes, cleared once', async () => {
    const w = wallet();
    const finding: WalletShortfall = {
      chain: 'BSC', wallet: w, lacks: 'token', refundId: 'rfd_01JD5A2C4E6G8J0K2M4P6R8T0V', currency: 'USDT', amount: '12.115416',
      since: new Date('2026-11-27T03:00:00.000Z'),
    };
    const mine = async () => (await wallets.findings()).filter((f) => f.wallet === w);
    expect(await wallets.clear('BSC', w)).toBeUndefined();
    expect(await wallets.raise(finding)).toBe('raised');
    const updatedAt = async () => (await orm.em.fork().execute<{ updated_at: Date }[]>('select updated_at from refund_senders where wallet = ?', [w]))[0]!.updated_at;
    const first = await updatedAt();
    expect(await wallets.raise({ ...finding, since: new Date('2026-11-27T03:05:00.000Z') })).toBe('kept');
    expect(await updatedAt()).toEqual(first);
    expect(await mine()).toEqual([finding]);
    const gas = { ...finding, lacks: 'gas' as const, since: new Date('2026-11-27T03:10:00.000Z') };
    expect(await wallets.raise(gas)).toBe('changed');
    expect(await mine()).toEqual([gas]);
    // The lease and the finding share the row: taking the lease keeps the finding.
    expect(await wallets.acquire('BSC', w, 'replica-a', 60_000)).toBe(true);
    expect(await wallets.clear('BSC', w)).toEqual(gas);
    expect(await wallets.clear('BSC', w)).toBeUndefined();
    expect(await mine()).toEqual([]);
    expect(await wallets.acquire('BSC', w, 'replica-a', 60_000)).toBe(true);
  });
});
