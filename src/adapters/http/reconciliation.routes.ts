import { z } from 'zod';
import type { AdminApplication } from '../../core/admin/admin-application';
import { MISMATCH_KINDS } from '../../core/reconciliation/reconciliation-ports';
import { MAX_REPORT_DAYS, MAX_REPORT_PAYMENTS, RECONCILABLE_PROVIDERS, type ReportErrorCode } from '../../core/reconciliation/reconciliation-report';
import { PAYMENT_STATUSES } from '../../core/payments/payment';
import type { ShapeACode } from '../contract/error-codes';
import { AUTH_ERRORS, DecimalString, ErrorA } from './common.schema';
import { sendShapeA } from './http-errors';
import { defineRoute, type RouteSpec } from './route';

const PaymentId = z.string().meta({ description: 'Payment id (pay_...)', example: 'pay_01JD4ZQ8W0Y8M2V6N3C5B7K9TQ' });
const TenantId = z.string().meta({ description: 'The tenant the payment belongs to', example: 'ten_01JD4Y9R3T6V8X0Z2B4D6F8H0K' });
const At = (description: string) => z.iso.datetime().meta({ description, example: '2026-11-23T09:30:00.000Z' });
const Currency = (description: string) => z.string().meta({ description, example: 'NGN' });
const Amount = (description: string) => DecimalString.meta({ description, example: '150000.00' });
const ProviderStatus = z.string().meta({ description: "The provider's own status word", example: 'success' });

const Finding = z.object({
  paymentId: PaymentId, tenantId: TenantId,
  provider: z.string().meta({ description: 'The provider asked: sandbox, mpesa, mtn_momo, paystack or pawapay', example: 'paystack' }),
  kind: z.enum(MISMATCH_KINDS).meta({
    description: 'What disagrees; unknown_provider_status: the provider answered a status (or result code) we do not map, so the payment waits for an operator',
    example: 'missing_at_provider',
  }),
  detail: z.string().meta({ description: 'What was seen, for operators (no personal data)', example: 'the provider has no transfer with this reference' }),
  seenAt: At('The latest check that found it'),
}).meta({ id: 'ReconciliationFinding' });

/** Every report failure code mapped to shape A; exhaustive by type. */
const REPORT_ERRORS: Record<ReportErrorCode, ShapeACode> = { validation_error: 'validation_error', provider_unavailable: 'provider_unavailable' };

const Outcome = z.enum(['pending', 'succeeded', 'failed', 'refunded', 'unconfirmed']).meta({ description: "What the provider's status means for the payment", example: 'succeeded' });
const Status = z.enum(PAYMENT_STATUSES).meta({ description: 'Our status of the payment', example: 'provider_accepted' });
const Report = z.object({
  provider: z.enum(RECONCILABLE_PROVIDERS).meta({ description: 'The provider compared with', example: 'paystack' }),
  from: At('Start of the window (inclusive)'), to: At('End of the window (exclusive)'), generatedAt: At('When the report was made'),
  compared: z.number().int().meta({ description: 'Our payments sent to the provider and created in [from, to)', example: 42 }),
  missingAtProvider: z.array(z.object({
    paymentId: PaymentId, tenantId: TenantId, status: Status, fiatAmount: Amount('Our fiatAmount, at the currency scale'),
    currency: Currency('Our destination currency'), createdAt: At('When the payment was created'),
  })).meta({ description: 'Ours, sent to the provider, with no record there' }),
  statusMismatches: z.array(z.object({
    paymentId: PaymentId, tenantId: TenantId, ourStatus: Status, providerOutcome: Outcome, providerStatus: ProviderStatus,
  })).meta({ description: 'A different state at the provider (pending there is provider_accepted here)' }),
  amountMismatches: z.array(z.object({
    paymentId: PaymentId, tenantId: TenantId, ourAmount: Amount('Our fiatAmount'), ourCurrency: Currency('Our destination currency'),
    providerAmount: Amount("The provider's amount, in its major unit"), providerCurrency: Currency("The provider's currency"),
  })).meta({ description: 'Paid out in another amount or currency (providers whose records carry amounts: Paystack)' }),
  atProviderOnly: z.array(z.object({
    paymentId: PaymentId, ourStatus: Status.nullable().meta({ description: 'null: no such payment here' }), providerOutcome: Outcome, providerStatus: ProviderStatus,
  })).meta({ description: 'Provider records of our payment ids that we do not count as sent to it in the window (list APIs only)' }),
  unconfirmed: z.array(z.object({ paymentId: PaymentId, tenantId: TenantId, ourStatus: Status }))
    .meta({ description: 'Asked but not compared: the provider answers status queries later, by callback (M-Pesa)' }),
}).meta({ id: 'ReconciliationReport' });

/** Query of GET /v1/admin/reconciliation; the operator CLI's `reconciliation:report` parses its flags with it too. */
export const ReconciliationQuery = z.strictObject({
  provider: z.enum(RECONCILABLE_PROVIDERS).meta({ description: 'The payout provider to compare with', example: 'paystack' }),
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
      description: 'Platform admin key. Reads the provider (its list API where it has one, else a status query per payment) for the payments '
        + 'sent to it between `from` and `to`, and lists what disagrees. Reports only: nothing is corrected (docs/decisions.md § Reconciliation).',
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
      summary: 'Mismatches found on payments not yet final: providers without a record of them, or answering a status we do not map; newest first',
      description: 'Platform admin key. What the reconciliation worker found when it queried payments stuck in provider_accepted, and the '
        + 'provider statuses we do not map that a status query or callback answered (on initiated or provider_accepted payments): kept '
        + 'while the payment is not final, never corrected by the service (docs/decisions.md § Reconciliation).',
      query: z.strictObject({ limit: z.coerce.number().int().min(1).max(500).default(100).meta({ description: 'Most findings to return, 1 to 500', example: 100 }) }),
      responses: { '200': { description: 'Findings', schema: z.array(Finding) }, ...AUTH_ERRORS },
      handler: async (req, res) => {
        const findings = await admin.listReconciliationFindings(req.query.limit);
        res.json(findings.map((f) => ({ ...f, seenAt: f.seenAt.toISOString() })));
      },
    }),
  ];
}
