import { Args, Ctx, Query, Resolver } from 'type-graphql';
import { ANALYTICS_ERRORS, SummaryQuery } from '../contract/analytics.contract';
import { AnalyticsSummaryArgs } from './analytics.args';
import { AnalyticsGroupType, toAnalyticsGroup } from './analytics.type';
import type { GraphqlContext } from './graphql-context';
import { parseInput, valueOf } from './graphql-errors';

/** Payment analytics (docs/decisions.md § Analytics, admin and health and § GraphQL): REST's summary on the same use case and query schema. */
@Resolver()
export class AnalyticsResolver {
  /**
   * The tenant's payments created in [from, to), grouped by `groupBy` (default day), ordered by
   * key: the groups of REST GET /v1/analytics/summary with the same figures. Errors:
   * validation_error (from or to not an ISO 8601 date-time with an offset, from not before to, a
   * range over 366 days).
   */
  @Query(() => [AnalyticsGroupType], { description: 'Counts, volumes, success rate and median time to success of your payments, grouped (REST: GET /v1/analytics/summary)' })
  async analyticsSummary(@Args(() => AnalyticsSummaryArgs) args: AnalyticsSummaryArgs, @Ctx() ctx: GraphqlContext): Promise<AnalyticsGroupType[]> {
    const query = parseInput(SummaryQuery, { ...args, from: args.from.toISOString(), to: args.to.toISOString() }, 'args');
    const groups = valueOf(await ctx.app.analyticsSummary(ctx.tenantId, {
      from: new Date(query.from), to: new Date(query.to), groupBy: query.groupBy,
    }), ANALYTICS_ERRORS);
    return groups.map(toAnalyticsGroup);
  }
}
