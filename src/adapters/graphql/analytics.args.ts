import { ArgsType, Field } from 'type-graphql';
import { ANALYTICS_GROUPS, type AnalyticsGroup } from '../../core/analytics/analytics';
import { SummaryQuery } from '../contract/analytics.contract';
import type { FieldDrift, NoDrift } from '../contract/schema-ties';
import { fieldOf } from './contract-fields';
import { enumOf } from './enums.type';

/** How the summary is grouped, the core's strings. */
export const AnalyticsGroupByEnum = enumOf(ANALYTICS_GROUPS, 'AnalyticsGroupBy', 'Grouping of analyticsSummary: day or hour (UTC), currency, method or status');

/**
 * Arguments of `analyticsSummary`: REST's query of GET /v1/analytics/summary, checked and described
 * by its zod schema. `from` and `to` are strings, not DateTimeISO, so that exactly the texts REST
 * accepts are accepted (ISO 8601 date-times with Z or an offset).
 */
@ArgsType()
export class AnalyticsSummaryArgs {
  @Field(() => String, fieldOf(SummaryQuery, 'from'))
  from!: string;

  @Field(() => String, fieldOf(SummaryQuery, 'to'))
  to!: string;

  @Field(() => AnalyticsGroupByEnum, fieldOf(SummaryQuery, 'groupBy'))
  groupBy?: AnalyticsGroup | null;
}
type _AnalyticsSummaryArgsTie = NoDrift<FieldDrift<AnalyticsSummaryArgs, typeof SummaryQuery>>;
