import { z } from 'zod';
import { ANALYTICS_GROUPS } from '../../core/analytics/analytics';
import type { Application } from '../../core/application';
import { AUTH_ERRORS } from './common.schema';
import { sendShapeA } from './http-errors';
import { defineRoute, type RouteSpec } from './route';

const SummaryQuery = z.strictObject({
  from: z.iso.datetime({ offset: true }).meta({ description: 'Start, inclusive (ISO 8601)' }),
  to: z.iso.datetime({ offset: true }).meta({ description: 'End, exclusive (ISO 8601); at most 366 days after from' }),
  groupBy: z.enum(ANALYTICS_GROUPS).default('day'),
});

const Group = z.object({
  key: z.string().meta({ description: 'The day (YYYY-MM-DD, UTC), currency, method or status' }),
  count: z.number().int(),
  fiatVolume: z.record(z.string(), z.string()).meta({ description: 'Decimal strings per destination currency' }),
  stablecoinVolume: z.record(z.string(), z.string()).meta({ description: 'Decimal strings per source stablecoin' }),
  successRate: z.string().nullable().meta({ description: 'succeeded / (succeeded + failed + refunded), 4 places' }),
  medianSecondsToSuccess: z.number().nullable(),
}).meta({ id: 'AnalyticsGroup' });

/** Routes of the Analytics tag (issue 6). */
export function analyticsRoutes(app: Application): RouteSpec<any, any, any>[] {
  return [
    defineRoute<undefined, z.infer<typeof SummaryQuery>>({
      method: 'get', path: '/v1/analytics/summary', operationId: 'analyticsSummary', tags: ['Analytics'], auth: 'issuer',
      summary: 'Counts, volumes, success rate and median time to success of the tenant\'s payments, grouped',
      query: SummaryQuery,
      responses: { '200': { description: 'One entry per group, ordered by key', schema: z.array(Group) }, ...AUTH_ERRORS },
      handler: async (req, res) => {
        const result = await app.analyticsSummary(req.tenantId, { from: new Date(req.query.from), to: new Date(req.query.to), groupBy: req.query.groupBy });
        if (!result.ok) return sendShapeA(res, result.code, result.message);
        res.json(result.value);
      },
    }),
  ];
}
