import { DateTimeISOResolver } from 'graphql-scalars';
import { ArgsType, Field } from 'type-graphql';
import { z } from 'zod';
import { ANALYTICS_GROUPS, type AnalyticsGroup } from '../../core/analytics/analytics';
import { SummaryQuery } from '../contract/analytics.contract';
import type { FieldDrift, NoDrift } from '../contract/schema-ties';
import { descriptionOf, fieldOf } from './contract-fields';
import { enumOf } from './enums.type';

/** How the summary is grouped, the core's strings. */
export const AnalyticsGroupByEnum = enumOf(ANALYTICS_GROUPS, 'AnalyticsGroupBy', 'Grouping of analyticsSummary: day or hour (UTC), currency, method or status', {
  day: 'One group per UTC day (key YYYY-MM-DD)',
  hour: 'One group per UTC hour (key: the hour\'s start, 2026-11-23T14:00:00Z)',
  currency: 'One group per destination currency',
  method: 'One group per payment method',
  status: 'One group per payment status',
});

/**
 * REST's summary query (SummaryQuery) as GraphQL takes it: `from` and `to` arrive as instants from
 * the DateTimeISO scalar, which already refused anything but an RFC 3339 date-time with an offset;
 * descriptions and the other fields are REST's.
 */
export const AnalyticsSummaryArgsSchema = SummaryQuery.extend({
  from: z.date().meta({ description: descriptionOf(SummaryQuery.shape.from) }),
  to: z.date().meta({ description: descriptionOf(SummaryQuery.shape.to) }),
});

/**
 * Arguments of `analyticsSummary`: REST's query of GET /v1/analytics/summary with `from` and `to`
 * typed DateTimeISO; the resolver checks them with REST's SummaryQuery as ISO 8601 strings.
 */
@ArgsType()
export class AnalyticsSummaryArgs {
  @Field(() => DateTimeISOResolver, fieldOf(AnalyticsSummaryArgsSchema, 'from'))
  from!: Date;

  @Field(() => DateTimeISOResolver, fieldOf(AnalyticsSummaryArgsSchema, 'to'))
  to!: Date;

  @Field(() => AnalyticsGroupByEnum, fieldOf(AnalyticsSummaryArgsSchema, 'groupBy'))
  groupBy?: AnalyticsGroup | null;
}
type _AnalyticsSummaryArgsTie = NoDrift<FieldDrift<AnalyticsSummaryArgs, typeof AnalyticsSummaryArgsSchema>>;
