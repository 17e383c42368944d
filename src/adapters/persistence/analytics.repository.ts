import type { EntityManager } from '@mikro-orm/postgresql';
import type { AnalyticsGroup, AnalyticsRow, AnalyticsStore } from '../../core/analytics/analytics';

/** The grouping expression per group: a closed map, never caller text, so nothing reaches SQL unchecked. */
const GROUP_EXPRESSION: Record<AnalyticsGroup, string> = {
  day: `to_char(created_at at time zone 'UTC', 'YYYY-MM-DD')`,
  hour: `to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24":00:00Z"')`,
  currency: 'destination_currency',
  method: 'payment_method',
  status: 'status',
};

/** Payment analytics computed in one SQL statement (AnalyticsStore port). */
export class AnalyticsRepository implements AnalyticsStore {
  constructor(private readonly em: EntityManager) {}

  async summary(tenantId: string, from: Date, to: Date, groupBy: AnalyticsGroup): Promise<AnalyticsRow[]> {
    const rows = await this.em.fork().execute<{
      grp: string; count: number; succeeded: number; final: number; median: number | null; fiat: Record<string, string>; coin: Record<string, string>;
    }[]>(
      `with p as (
         select id, status, destination_currency, source_currency, fiat_amount, amount_stablecoin, created_at,
                ${GROUP_EXPRESSION[groupBy]} as grp
           from payments where tenant_id = ? and created_at >= ? and created_at < ?),
       fiat as (select grp, json_object_agg(destination_currency, total) as v
                  from (select grp, destination_currency, sum(fiat_amount)::text as total from p group by 1, 2) f group by grp),
       coin as (select grp, json_object_agg(source_currency, total) as v
                  from (select grp, source_currency, sum(amount_stablecoin)::text as total from p group by 1, 2) c group by grp),
       stats as (
         select p.grp, count(*)::int as count,
                count(*) filter (where p.status = 'succeeded')::int as succeeded,
                count(*) filter (where p.status in ('succeeded', 'failed', 'refunded'))::int as final,
                percentile_cont(0.5) within group (order by extract(epoch from (e.created_at - p.created_at)))
                  filter (where e.id is not null) as median
           from p left join outbox_events e on e.entity_id = p.id and e.type = 'payment.succeeded'
          group by p.grp)
       select stats.*, fiat.v as fiat, coin.v as coin
         from stats join fiat using (grp) join coin using (grp) order by grp`,
      [tenantId, from, to],
    );
    return rows.map((r) => ({
      key: r.grp, count: r.count, succeeded: r.succeeded, final: r.final,
      medianSecondsToSuccess: r.median === null ? null : Math.round(Number(r.median) * 1000) / 1000,
      fiatVolume: r.fiat, stablecoinVolume: r.coin,
    }));
  }
}
