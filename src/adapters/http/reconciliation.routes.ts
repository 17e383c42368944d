import { z } from 'zod';
import type { AdminApplication } from '../../core/admin/admin-application';
import { MISMATCH_KINDS } from '../../core/reconciliation/reconciliation-ports';
import { MAX_REPORT_DAYS, MAX_REPORT_PAYMENTS, RECONCILABLE_PROVIDERS, type ReportErrorCode } from '../../core/reconciliation/reconciliation-report';
import { PAYMENT_STATUSES } from '../../core/payments/payment';
import type { ShapeACode } from '../contract/error-codes';
import { AUTH_ERRORS, DecimalString, ErrorA } from './common.schema';
import { sendShapeA } from './http-errors';
import { defineRoute, type RouteSpec } from './route';

const Finding = z.object({
  paymentId: z.string(), tenantId: z.string(),
  provider: z.string().meta({ description: 'The provider asked: sandbox, mpesa, mtn_momo or paystack' }),
  kind: z.enum(MISMATCH_KINDS), detail: z.string(),
  seenAt: z.iso.datetime().meta({ description: 'The latest check that found it' }),
}).meta({ id: 'ReconciliationFinding' });

/** Every report failure code mapped to shape A; exhaustive by type. */
const REPORT_ERRORS: Record<ReportErrorCode, ShapeACode> = { validation_error: 'validation_error', provider_unavailable: 'provider_unavailable' };

const Outcome = z.enum(['pending', 'succeeded', 'failed', 'refunded', 'unconfirmed']).meta({ description: "What the provider's status means for the payment" });
const Status = z.enum(PAYMENT_STATUSES);
const Report = z.object({
  provider: z.enum(RECONCILABLE_PROVIDERS), from: z.iso.datetime(), to: z.iso.datetime(), generatedAt: z.iso.datetime(),
  compared: z.number().int().meta({ description: 'Our payments sent to the provider and created in [from, to)' }),
  missingAtProvider: z.array(z.object({
    paymentId: z.string(), tenantId: z.string(), status: Status, fiatAmount: DecimalString, currency: z.string(), createdAt: z.iso.datetime(),
  })).meta({ description: 'Ours, sent to the provider, with no record there' }),
  statusMismatches: z.array(z.object({
    paymentId: z.string(), tenantId: z.string(), ourStatus: Status, providerOutcome: Outcome,
    providerStatus: z.string().meta({ description: "The provider's own status word" }),
  })).meta({ description: 'A different state at the provider (pending there is provider_accepted here)' }),
  amountMismatches: z.array(z.object({
    paymentId: z.string(), tenantId: z.string(), ourAmount: DecimalString, ourCurrency: z.string(), providerAmount: DecimalString, providerCurrency: z.string(),
  })).meta({ description: 'Paid out in another amount or currency (providers whose records carry amounts: Paystack)' }),
  atProviderOnly: z.array(z.object({
    paymentId: z.string(), ourStatus: Status.nullable().meta({ description: 'null: no such payment here' }), providerOutcome: Outcome, providerStatus: z.string(),
  })).meta({ description: 'Provider records of our payment ids that we do not count as sent to it in the window (list APIs only)' }),
  unconfirmed: z.array(z.object({ paymentId: z.string(), tenantId: z.string(), ourStatus: Status }))
    .meta({ description: 'Asked but not compared: the provider answers status queries later, by callback (M-Pesa)' }),
}).meta({ id: 'ReconciliationReport' });

/** Query of GET /v1/admin/reconciliation; the operator CLI's `reconciliation:report` parses its flags with it too. */
export const ReconciliationQuery = z.strictObject({
  provider: z.enum(RECONCILABLE_PROVIDERS),
  from: z.iso.datetime().meta({ description: 'Start of the window (inclusive), ISO 8601 UTC: payments created from then' }),
  to: z.iso.datetime().meta({ description: `End of the window (exclusive), at most ${MAX_REPORT_DAYS} days after from` }),
});

/**
 * Admin routes of reconciliation (docs/decisions.md § Reconciliation); every one needs an admin key.
 * Mismatches are reported here and in metrics, never corrected by the service.
 */
export function reconciliationRoutes(admin: AdminApplication): RouteSpec<any, any, any>[] {
  const common = { tags: ['Admin'], auth: 'admin' } as const;
  return [
    defineRoute<undefined, z.infer<typeof ReconciliationQuery>>({
      ...common, method: 'get', path: '/v1/admin/reconciliation', operationId: 'reconciliationReport',
      summary: "Compare our payments sent to a provider in a window with the provider's records: missing at the provider, status and amount mismatches",
      query: ReconciliationQuery,
      responses: {
        '200': { description: `The report; reads only, corrects nothing. At most ${MAX_REPORT_PAYMENTS} payments per window (more: 400, narrow it)`, schema: Report },
        ...AUTH_ERRORS,
        '503': { description: "provider_unavailable: the provider is not configured here or its records could not be read", schema: ErrorA },
      },
      handler: async (req, res) => {
        const result = await admin.reconciliationReport(req.query.provider, { from: new Date(req.query.from), to: new Date(req.query.to) });
        if (!result.ok) return sendShapeA(res, REPORT_ERRORS[result.code], result.message);
        res.json(result.value);
      },
    }),
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
