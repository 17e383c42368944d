import { z } from 'zod';
import type { Application } from '../../core/application';
import { RefundListQuerySchema, RefundResponse, toRefundListQuery } from '../contract/refund.contract';
import { AUTH_ERRORS } from './common.schema';
import { fieldsOf, sendShapeA } from './http-errors';
import { nextPageLink, PAGE_PARAMS } from './pagination';
import { defineRoute, type RouteSpec } from './route';

/** The issuer's own refunds (docs/decisions.md § Refunds; docs/api.md § Refunds; OpenAPI listTenantRefunds). */
export function tenantRefundRoutes(app: Application): RouteSpec<any, any, any>[] {
  return [
    defineRoute<undefined, z.output<typeof RefundListQuerySchema>>({
      tags: ['Payments'], auth: 'issuer', method: 'get', path: '/v1/refunds', operationId: 'listTenantRefunds',
      summary: 'Your onchain refunds of live payouts that failed or were reversed, newest first; the next page is in the Link header',
      description: 'A live payout that fails or is reversed after the provider accepted it owes you its whole stablecoin amount back, sent onchain to its '
        + 'refundAddress: pending → broadcast → confirmed (final), or failed while an operator sees to it, or sent when an operator sent it by hand. '
        + 'Filter by status (several values match any). limit 1..100 (default 50); when more entries follow, the Link header holds the next page with your '
        + 'filters: follow it as given. The same refund is the `refund` of its payment (GET /v1/payments/{paymentId}).',
      query: RefundListQuerySchema,
      responses: {
        '200': {
          description: 'One page of refunds, newest first (empty when nothing matches)', schema: z.array(RefundResponse),
          example: [z.globalRegistry.get(RefundResponse)?.example],
        },
        ...AUTH_ERRORS,
      },
      handler: async (req, res) => {
        const result = await app.listRefunds(req.tenantId, toRefundListQuery(req.query));
        if (!result.ok) return sendShapeA(res, result.code, result.message, fieldsOf(result, req, PAGE_PARAMS));
        if (result.value.nextCursor) res.set('Link', nextPageLink(req.raw, req.query, result.value.nextCursor));
        res.json(result.value.entries);
      },
    }),
  ];
}
