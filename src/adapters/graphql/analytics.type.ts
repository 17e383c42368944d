import { Field, Float, Int, ObjectType } from 'type-graphql';
import type { AnalyticsGroupView } from '../../core/analytics/analytics';
import { DecimalScalar } from './decimal.scalar';

/** An amount in one currency: one member of REST's `{ "<currency>": "<amount>" }` volume objects. */
@ObjectType('CurrencyAmount', { description: 'A decimal amount in one currency (fiat or stablecoin)' })
export class CurrencyAmountType {
  @Field(() => String, { description: 'Currency code, e.g. KES or USDC' })
  currency!: string;

  @Field(() => DecimalScalar, { description: "At the currency's scale, e.g. \"7500.00\", \"3000\", \"12.115416\"" })
  amount!: string;
}

/**
 * `AnalyticsGroup` (docs/decisions.md § Analytics, admin and health and § GraphQL): one group of REST GET /v1/analytics/summary,
 * field for field. REST's volume objects become lists of CurrencyAmount in the same order, since
 * GraphQL has no map type.
 */
@ObjectType('AnalyticsGroup', { description: 'Figures of one group of your payments created in [from, to) (REST: GET /v1/analytics/summary)' })
export class AnalyticsGroupType {
  @Field(() => String, { description: 'The day (YYYY-MM-DD, UTC), hour (YYYY-MM-DDTHH:00:00Z), currency, method or status' })
  key!: string;

  @Field(() => Int, { description: 'Payments created in the range, any status' })
  count!: number;

  @Field(() => [CurrencyAmountType], { description: 'fiatAmount summed per destination currency (any status)' })
  fiatVolume!: CurrencyAmountType[];

  @Field(() => [CurrencyAmountType], { description: 'amountStablecoin summed per source stablecoin (any status)' })
  stablecoinVolume!: CurrencyAmountType[];

  @Field(() => DecimalScalar, { nullable: true, description: 'succeeded / (succeeded + failed + refunded), at most 4 places; null while none is final' })
  successRate!: string | null;

  @Field(() => Float, { nullable: true, description: 'Median seconds from creation to success over the succeeded payments (ms precision); null when none succeeded' })
  medianSecondsToSuccess!: number | null;
}

/** The GraphQL shape of a core group: volume objects as CurrencyAmount lists in REST's key order. Pure. */
export function toAnalyticsGroup(view: AnalyticsGroupView): AnalyticsGroupType {
  const amounts = (volume: Record<string, string>) => Object.entries(volume).map(([currency, amount]) => ({ currency, amount }));
  return { ...view, fiatVolume: amounts(view.fiatVolume), stablecoinVolume: amounts(view.stablecoinVolume) };
}
