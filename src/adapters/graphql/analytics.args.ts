import { ArgsType, Field } from 'type-graphql';
import { ANALYTICS_GROUPS, type AnalyticsGroup } from '../../core/analytics/analytics';
import { enumOf } from './enums.type';

/** How the summary is grouped, the core's strings. */
export const AnalyticsGroupByEnum = enumOf(ANALYTICS_GROUPS, 'AnalyticsGroupBy', 'Grouping of analyticsSummary: day (UTC), currency, method or status');

/**
 * Arguments of `analyticsSummary`: REST's query of GET /v1/analytics/summary, checked by
 * its zod schema. `from` and `to` are strings, not DateTimeISO, so that exactly the texts REST
 * accepts are accepted (ISO 8601 date-times with Z or an offset).
 */
@ArgsType()
export class AnalyticsSummaryArgs {
  @Field(() => String, { description: 'Start, inclusive: ISO 8601 date-time with Z or an offset' })
  from!: string;

  @Field(() => String, { description: 'End, exclusive: ISO 8601 date-time; after from, at most 366 days later' })
  to!: string;

  @Field(() => AnalyticsGroupByEnum, { nullable: true, description: 'Default day' })
  groupBy?: AnalyticsGroup | null;
}
