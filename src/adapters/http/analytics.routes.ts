import { z } from 'zod';
import type { Application } from '../../core/application';
import { ANALYTICS_ERRORS, SummaryQuery } from '../contract/analytics.contract';
import { AUTH_ERRORS } from './common.schema';
import { sendShapeA } from './http-errors';
import { defineRoute, type RouteSpec } from './route';

const Group = z.object({
  key: z.string().meta({ description: 'The day (YYYY-MM-DD, UTC), hour (YYYY-MM-DDTHH:00:00Z), currency, method or status' }),
  count: z.number().int().meta({ description: 'Payments created in the range, any status' }),
  fiatVolume: z.record(z.string(), z.string()).meta({ description: 'fiatAmount summed per destination currency over those payments (any status), decimal strings at the currency scale' }),
  stablecoinVolume: z.record(z.string(), z.string()).meta({ description: 'amountStablecoin summed per source stablecoin over those payments (any status), decimal strings' }),
  successRate: z.string().nullable().meta({ description: 'succeeded / (succeeded + failed + refunded) as a decimal string, at most 4 places; null while none is final', example: '0.75' }),
  medianSecondsToSuccess: z.number().nullable().meta({ description: 'Median seconds from creation to payment.succeeded over the succeeded payments (ms precision); null when none succeeded' }),
}).meta({ id: 'AnalyticsGroup' });

/** Routes of the Analytics tag (docs/decisions.md § Analytics, admin and health). */
export function analyticsRoutes(app: Application): RouteSpec<any, any, any>[] {
  return [
    defineRoute<undefined, z.infer<typeof SummaryQuery>>({
      method: 'get', path: '/v1/analytics/summary', operationId: 'analyticsSummary', tags: ['Analytics'], auth: 'issuer',
      summary: 'Counts, volumes, success rate and median time to success of the tenant\'s payments, grouped',
      query: SummaryQuery,
      responses: { '200': { description: 'One entry per group, ordered by key', schema: z.array(Group) }, ...AUTH_ERRORS },
      handler: async (req, res) => {
        const result = await app.analyticsSummary(req.tenantId, { from: new Date(req.query.from), to: new Date(req.query.to), groupBy: req.query.groupBy });
        if (!result.ok) return sendShapeA(res, ANALYTICS_ERRORS[result.code], result.message);
        res.json(result.value);
      },
    }),
  ];
}
