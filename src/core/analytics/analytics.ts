import { Decimal, formatAmount, type Currency } from '../shared/money';
import { err, ok, type Result } from '../shared/result';

/** How the summary is grouped; `hour` keys are the hour's start (`2026-11-23T14:00:00Z`, UTC), for charts of a day. */
export const ANALYTICS_GROUPS = ['day', 'hour', 'currency', 'method', 'status'] as const;
export type AnalyticsGroup = (typeof ANALYTICS_GROUPS)[number];

/** One group's raw figures as the store computes them (sums as decimal strings). */
export interface AnalyticsRow {
  key: string;
  count: number;
  succeeded: number;
  /** Payments in a final state (succeeded, failed, refunded). */
  final: number;
  /** Median seconds from creation to `succeeded`, over succeeded payments; null when none. */
  medianSecondsToSuccess: number | null;
  fiatVolume: Record<string, string>;
  stablecoinVolume: Record<string, string>;
}

/** Port: computes per-group figures in the database (tenant-scoped, created in [from, to)). */
export interface AnalyticsStore {
  summary(tenantId: string, from: Date, to: Date, groupBy: AnalyticsGroup): Promise<AnalyticsRow[]>;
}

/** One group of GET /v1/analytics/summary: volumes are decimal strings at each currency's scale. */
export interface AnalyticsGroupView {
  key: string;
  count: number;
  /** Fiat paid out or requested, per destination currency. */
  fiatVolume: Record<string, string>;
  /** Stablecoin charged, per source currency. */
  stablecoinVolume: Record<string, string>;
  /** succeeded / final, 4 places as a decimal string; null while none is final. */
  successRate: string | null;
  medianSecondsToSuccess: number | null;
}

/** A year, leap day included: enough for year-on-year views, small enough to stay one quick scan of an index range. */
const MAX_RANGE_DAYS = 366;

/** Every expected failure of the analytics summary. */
export type AnalyticsErrorCode = 'validation_error';

/**
 * Payment analytics of one tenant over [from, to) (docs/decisions.md § Analytics, admin and health): counts, volumes per
 * currency, success rate, median time to success, grouped by day or hour (UTC), currency, method or status.
 * Errors: `validation_error` (from not before to, or a range over 366 days).
 */
export async function analyticsSummary(
  store: AnalyticsStore,
  tenantId: string,
  query: { from: Date; to: Date; groupBy: AnalyticsGroup },
): Promise<Result<AnalyticsGroupView[], AnalyticsErrorCode>> {
  if (query.from.getTime() >= query.to.getTime()) return err('validation_error', 'from must be before to', { field: 'from' });
  if (query.to.getTime() - query.from.getTime() > MAX_RANGE_DAYS * 86_400_000) {
    return err('validation_error', `the range may span at most ${MAX_RANGE_DAYS} days`, { field: 'to' });
  }
  const rows = await store.summary(tenantId, query.from, query.to, query.groupBy);
  return ok(rows.map((row) => ({
    key: row.key,
    count: row.count,
    fiatVolume: formatVolumes(row.fiatVolume),
    stablecoinVolume: formatVolumes(row.stablecoinVolume),
    successRate: row.final === 0 ? null : new Decimal(row.succeeded).div(row.final).toDecimalPlaces(4).toString(),
    medianSecondsToSuccess: row.medianSecondsToSuccess,
  })));
}

function formatVolumes(volumes: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(volumes).map(([currency, sum]) => [currency, formatAmount(sum, currency as Currency)]));
}
