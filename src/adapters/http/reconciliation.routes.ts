import { z } from 'zod';
import type { AdminApplication } from '../../core/admin/admin-application';
import { MISMATCH_KINDS } from '../../core/reconciliation/reconciliation-ports';
import { AUTH_ERRORS } from './common.schema';
import { defineRoute, type RouteSpec } from './route';

const Finding = z.object({
  paymentId: z.string(), tenantId: z.string(),
  provider: z.string().meta({ description: 'The provider asked: sandbox, mpesa, mtn_momo or paystack' }),
  kind: z.enum(MISMATCH_KINDS), detail: z.string(),
  seenAt: z.iso.datetime().meta({ description: 'The latest check that found it' }),
}).meta({ id: 'ReconciliationFinding' });

/**
 * Admin routes of reconciliation (docs/decisions.md § Reconciliation); every one needs an admin key.
 * Mismatches are reported here and in metrics, never corrected by the service.
 */
export function reconciliationRoutes(admin: AdminApplication): RouteSpec<any, any, any>[] {
  const common = { tags: ['Admin'], auth: 'admin' } as const;
  return [
    defineRoute<undefined, { limit: number }>({
      ...common, method: 'get', path: '/v1/admin/reconciliation/findings', operationId: 'listReconciliationFindings',
      summary: 'Mismatches the reconciliation worker found on payments still provider_accepted, newest first',
      query: z.strictObject({ limit: z.coerce.number().int().min(1).max(500).default(100) }),
      responses: { '200': { description: 'Findings', schema: z.array(Finding) }, ...AUTH_ERRORS },
      handler: async (req, res) => {
        const findings = await admin.listReconciliationFindings(req.query.limit);
        res.json(findings.map((f) => ({ ...f, seenAt: f.seenAt.toISOString() })));
      },
    }),
  ];
}
