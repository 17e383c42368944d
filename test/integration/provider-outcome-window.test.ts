import { MikroORM } from '@mikro-orm/postgresql';
import { randomBytes } from 'node:crypto';
import { ormOptions } from '../../src/adapters/persistence/mikro-orm.config';
import { ProviderOutcomeWindowRepository } from '../../src/adapters/persistence/provider-outcome-window.repository';
import type { OutcomeSample } from '../../src/core/routing/provider-outcomes';
import type { PayoutCorridor } from '../../src/core/routing/provider-routing';

/**
 * The providers' outcome window on real PostgreSQL (docs/decisions.md § Payout providers: routing
 * on measured success): samples add up per corridor, provider and bucket, concurrent upserts lose
 * none, a read sums only the buckets in the window, and old buckets are pruned.
 */
describe('provider outcome window', () => {
  let orm: MikroORM;
  const BUCKET_MS = 60_000;
  beforeAll(async () => {
    orm = await MikroORM.init(ormOptions(process.env.TEST_DATABASE_URL!, 8));
  });
  afterAll(() => orm.close(true));

  /** A corridor of its own per test (a random operator code), so no other test's rows are summed. */
  const corridor = (): PayoutCorridor => ({ country: 'KE', paymentMethod: 'MOMO', paymentCode: `T${randomBytes(6).toString('hex')}` });
  const repo = (keepMs = 86_400_000, pruneEveryMs?: number) => new ProviderOutcomeWindowRepository(orm.em.fork(), { bucketMs: BUCKET_MS, keepMs, ...(pruneEveryMs !== undefined ? { pruneEveryMs } : {}) });
  const now = Math.floor(Date.now() / BUCKET_MS) * BUCKET_MS;
  const sample = (c: PayoutCorridor, provider: string, atMs: number, over: Partial<OutcomeSample> = {}): OutcomeSample => ({ provider, corridor: c, at: new Date(atMs), ...over });

  it('sums successes, failures and latencies per provider over the buckets from `since` on', async () => {
    const c = corridor();
    const window = repo();
    for (const s of [
      sample(c, 'a', now - 10 * BUCKET_MS + 5, { outcome: 'failure' }), // before the window
      sample(c, 'a', now - 2 * BUCKET_MS + 5, { outcome: 'success', latencyMs: 100 }),
      sample(c, 'a', now - BUCKET_MS + 5, { outcome: 'failure', latencyMs: 300 }),
      sample(c, 'a', now + 5, { outcome: 'success' }),
      sample(c, 'a', now + 6, { latencyMs: 50 }),
      sample(c, 'b', now + 7, { outcome: 'success', latencyMs: 10 }),
      sample({ ...c, country: 'UG' }, 'a', now + 8, { outcome: 'failure' }), // another corridor
    ]) await window.record(s);
    const figures = await window.figures(c, new Date(now - 3 * BUCKET_MS + 1));
    expect(Object.fromEntries(figures)).toEqual({
      a: { successes: 2, failures: 1, latencyMsSum: 450, latencySamples: 3 },
      b: { successes: 1, failures: 0, latencyMsSum: 10, latencySamples: 1 },
    });
    expect(Object.fromEntries(await window.figures(c, new Date(now - 10 * BUCKET_MS)))).toMatchObject({ a: { successes: 2, failures: 2 } });
    expect((await window.figures(corridor(), new Date(now - BUCKET_MS))).size).toBe(0);
  });

  it('concurrent samples from many replicas into one bucket all count', async () => {
    const c = corridor();
    const replicas = [repo(), repo(), repo(), repo()];
    await Promise.all(Array.from({ length: 80 }, (_, i) => replicas[i % 4]!.record(sample(c, 'a', now + i, { outcome: i % 4 === 0 ? 'failure' : 'success', latencyMs: 2 }))));
    expect((await repo().figures(c, new Date(now))).get('a')).toEqual({ successes: 60, failures: 20, latencyMsSum: 160, latencySamples: 80 });
    const rows = await orm.em.fork().getConnection().execute<Array<{ n: number }>>('select count(*)::int as n from payout_provider_outcomes where payment_code = ?', [c.paymentCode]);
    expect(rows[0]?.n).toBe(1);
  });

  it('prunes buckets older than it keeps, at most once per prune interval', async () => {
    const c = corridor();
    await repo().record(sample(c, 'a', now - 5 * BUCKET_MS, { outcome: 'success' }));
    const pruning = repo(2 * BUCKET_MS, 3_600_000);
    await pruning.record(sample(c, 'a', now, { outcome: 'success' }));
    expect((await pruning.figures(c, new Date(now - 10 * BUCKET_MS))).get('a')?.successes).toBe(1);
    // Within the interval no second delete runs: an old sample recorded again stays.
    await repo().record(sample(c, 'a', now - 5 * BUCKET_MS, { outcome: 'success' }));
    await pruning.record(sample(c, 'a', now + 1, { outcome: 'success' }));
    expect((await pruning.figures(c, new Date(now - 10 * BUCKET_MS))).get('a')?.successes).toBe(3);
  });
});
