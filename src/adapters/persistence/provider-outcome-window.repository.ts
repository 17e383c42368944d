import type { EntityManager } from '@mikro-orm/postgresql';
import type { OutcomeSample, ProviderOutcomeWindow } from '../../core/routing/provider-outcomes';
import type { PayoutCorridor } from '../../core/routing/provider-routing';
import type { WindowFigures } from '../../core/routing/success-rate-scoring';

interface FiguresRow {
  provider: string;
  successes: number;
  failures: number;
  latency_ms_sum: string;
  latency_samples: number;
}

/**
 * The providers' outcome window in `payout_provider_outcomes` (ProviderOutcomeWindow port;
 * docs/decisions.md § Payout providers: routing on measured success): one row per corridor,
 * provider and `bucketMs` time bucket, whose counters each sample adds to in one upsert, so every
 * replica reads the same figures. Buckets older than `keepMs` are deleted by the first sample
 * recorded after `pruneEveryMs` have passed (per process); reads sum the buckets from `since` on
 * (the primary key's prefix serves them).
 */
export class ProviderOutcomeWindowRepository implements ProviderOutcomeWindow {
  private lastPrunedMs = 0;

  constructor(
    private readonly em: EntityManager,
    private readonly settings: { readonly bucketMs: number; readonly keepMs: number; readonly pruneEveryMs?: number },
  ) {}

  async record(sample: OutcomeSample): Promise<void> {
    const at = sample.at.getTime();
    const bucket = new Date(Math.floor(at / this.settings.bucketMs) * this.settings.bucketMs);
    const [successes, failures] = [sample.outcome === 'success' ? 1 : 0, sample.outcome === 'failure' ? 1 : 0];
    const [latency, samples] = sample.latencyMs === undefined ? [0, 0] : [sample.latencyMs, 1];
    await this.em.getConnection().execute(
      `insert into payout_provider_outcomes as o (country, payment_method, payment_code, provider, bucket_start, successes, failures, latency_ms_sum, latency_samples)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?)
       on conflict (country, payment_method, payment_code, provider, bucket_start) do update set
         successes = o.successes + excluded.successes, failures = o.failures + excluded.failures,
         latency_ms_sum = o.latency_ms_sum + excluded.latency_ms_sum, latency_samples = o.latency_samples + excluded.latency_samples`,
      [sample.corridor.country, sample.corridor.paymentMethod, sample.corridor.paymentCode, sample.provider, bucket, successes, failures, latency, samples],
    );
    if (at - this.lastPrunedMs >= (this.settings.pruneEveryMs ?? 3_600_000)) {
      this.lastPrunedMs = at;
      await this.em.getConnection().execute('delete from payout_provider_outcomes where bucket_start < ?', [new Date(at - this.settings.keepMs)]);
    }
  }

  async figures(corridor: PayoutCorridor, since: Date): Promise<ReadonlyMap<string, WindowFigures>> {
    const rows = await this.em.getConnection().execute<FiguresRow[]>(
      `select provider, sum(successes)::int as successes, sum(failures)::int as failures,
              sum(latency_ms_sum)::text as latency_ms_sum, sum(latency_samples)::int as latency_samples
         from payout_provider_outcomes
        where country = ? and payment_method = ? and payment_code = ? and bucket_start >= ?
        group by provider`,
      [corridor.country, corridor.paymentMethod, corridor.paymentCode, new Date(Math.floor(since.getTime() / this.settings.bucketMs) * this.settings.bucketMs)],
    );
    return new Map(rows.map((row) => [row.provider, {
      successes: row.successes, failures: row.failures, latencyMsSum: Number(row.latency_ms_sum), latencySamples: row.latency_samples,
    }]));
  }
}

