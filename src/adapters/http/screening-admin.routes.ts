import { z } from 'zod';
import type { AdminApplication } from '../../core/admin/admin-application';
import { REVIEW_STATUSES, REVIEW_SUBJECTS, type ComplianceReview, type ReviewStatus, type ReviewSubject } from '../../core/screening/compliance-review';
import type { ReviewErrorCode } from '../../core/screening/review-decisions';
import { LIST_SOURCES, type LoadedList } from '../../core/screening/sanctions-screen';
import type { ShapeACode } from '../contract/error-codes';
import { AUTH_ERRORS, ErrorA } from './common.schema';
import { fieldsOf, sendShapeA } from './http-errors';
import { defineRoute, type RouteSpec } from './route';

/** Every review failure code mapped to shape A; exhaustive by type. */
const REVIEW_ERRORS: Record<ReviewErrorCode, ShapeACode> = { validation_error: 'validation_error', not_found: 'not_found', invalid_state: 'invalid_state' };

const ListView = z.object({
  source: z.enum(LIST_SOURCES).meta({ description: 'ofac-sdn (OFAC SDN.XML) or un-consolidated (UN Security Council consolidated.xml)' }),
  version: z.string().meta({ description: "The list's own version: OFAC Publish_Date, UN dateGenerated", example: '11/25/2026' }),
  publishedAt: z.iso.datetime().meta({ description: 'When the list says it was published', example: '2026-11-25T00:00:00.000Z' }),
  loadedAt: z.iso.datetime().meta({ description: 'When it was loaded', example: '2026-11-26T08:00:00.000Z' }),
  entries: z.number().int().meta({ description: 'Designated parties in it', example: 18000 }),
}).meta({ id: 'ScreeningList' });

const HitView = z.object({
  kind: z.enum(['name', 'address']).meta({ description: "name: the recipient's or customer's name resembles a listed name; address: the refund address or deposit sender is a listed digital currency address" }),
  source: z.enum(LIST_SOURCES).meta({ description: 'The list' }),
  entryId: z.string().meta({ description: "The entry's id in its list (OFAC uid, UN DATAID)", example: '36735' }),
  matchedName: z.string().optional().meta({ description: 'name hits: the listed name or alias it resembles', example: 'KAKWAVU BUKANDE, Jerome' }),
  score: z.number().optional().meta({ description: 'name hits: Jaro-Winkler similarity of the token-sorted names, 0 to 1', example: 0.97 }),
  currency: z.string().optional().meta({ description: "address hits: OFAC's currency code", example: 'ETH' }),
  address: z.string().optional().meta({ description: 'address hits: the listed address', example: '0x8576acc5c05d6ce88f4e49bf65bdf0c62f91353c' }),
}).meta({ id: 'ScreeningHit' });

const ReviewView = z.object({
  kind: z.enum(REVIEW_SUBJECTS).meta({ description: "What is held: payment (a money-out, before submission), customer (its KYC check), deposit (its credit)" }),
  subjectId: z.string().meta({ description: 'The held payment (pay_...), customer (cus_...) or deposit (dep_...)', example: 'pay_01JD4ZQ8W0Y8M2V6N3C5B7K9TQ' }),
  tenantId: z.string().meta({ description: 'Its tenant', example: 'ten_01JD4Y9R3T6V8X0Z2B4D6F8H0K' }),
  status: z.enum(REVIEW_STATUSES).meta({
    description: 'pending: the subject waits (a payment unsent, a customer unchecked, a deposit uncredited); cleared: a payment was released to its provider, a customer to its KYC check; '
      + 'rejected: a payment failed as compliance_rejected, a customer is rejected (kycReason compliance_rejected), a deposit stays uncredited for good',
  }),
  hits: z.array(HitView).meta({ description: 'Why it was held' }),
  clearable: z.boolean().meta({ description: 'false when a hit is an exact listed address (every deposit review): such a subject can only be rejected' }),
  createdAt: z.iso.datetime().meta({ description: 'When it was held', example: '2026-11-27T00:31:06.120Z' }),
  decidedBy: z.string().nullable().meta({ description: 'The admin key that decided; null while pending', example: null }),
  decidedAt: z.iso.datetime().nullable().meta({ description: 'When; null while pending', example: null }),
  reason: z.string().nullable().meta({ description: "The operator's reason; null while pending", example: null }),
}).meta({ id: 'ComplianceReview' });

const ReviewParams = z.object({ subjectId: z.string().max(64).meta({ description: 'The held payment (pay_...), customer (cus_...) or deposit (dep_...)', example: 'pay_01JD4ZQ8W0Y8M2V6N3C5B7K9TQ' }) });
const DecisionBody = z.strictObject({
  reason: z.string().max(500).meta({ description: 'Why, for the audit record (1 to 500 characters)', example: 'Different date of birth and nationality than the listed person' }),
}).meta({ id: 'ComplianceDecision' });
/** Body of POST /v1/admin/screening/lists; the operator CLI (`screening:load`) fills `document` from its file. */
export const LoadListBody = z.strictObject({
  source: z.enum(LIST_SOURCES).meta({ description: 'Which list the file is' }),
  document: z.string().min(1).meta({
    description: "The list file's XML, as downloaded (a full SDN.XML exceeds BODY_LIMIT: load it with the CLI)",
    example: '<?xml version="1.0" standalone="yes"?><sdnList>…</sdnList>',
  }),
}).meta({ id: 'ScreeningListLoad' });

const listJson = (l: LoadedList) => ({ ...l, publishedAt: l.publishedAt.toISOString(), loadedAt: l.loadedAt.toISOString() });
const reviewJson = (r: ComplianceReview) => ({
  kind: r.subjectKind, subjectId: r.subjectId, tenantId: r.tenantId, status: r.status, hits: r.hits, clearable: !r.hits.some((h) => h.kind === 'address'),
  createdAt: r.createdAt.toISOString(), decidedBy: r.decidedBy, decidedAt: r.decidedAt?.toISOString() ?? null, reason: r.reason,
});
const UNCONFIGURED = 'sanctions screening is not configured in this process';

/** Admin routes of sanctions screening (docs/api.md § Compliance reviews; docs/decisions.md § Screening). */
export function screeningAdminRoutes(admin: AdminApplication): RouteSpec<any, any, any>[] {
  const common = { tags: ['Admin'], auth: 'admin' } as const;
  const decision = (move: 'clear' | 'reject') => defineRoute<{ reason: string }, undefined, { subjectId: string }>({
    ...common, method: 'post', path: `/v1/admin/compliance-reviews/{subjectId}/${move}`, operationId: move === 'clear' ? 'clearComplianceReview' : 'rejectComplianceReview', role: 'operator',
    summary: move === 'clear'
      ? 'Clear a payment or customer held by screening: the payment is sent to its provider, the customer goes to its KYC check'
      : 'Reject a subject held by screening: a payment fails as compliance_rejected, a customer is rejected, a deposit stays uncredited',
    description: `Platform admin key. Recorded with the admin key and the reason (the audit record). ${move === 'clear'
      ? 'A subject held for an exact listed address (a refund address, any deposit sender) cannot be cleared (409 invalid_state): reject it.'
      : 'A payment fails with failureCode compliance_rejected before anything was sent (its amount returns to the available balance); a customer becomes rejected with kycReason compliance_rejected (customer.kyc.updated); a deposit is marked rejected, never credited.'}`,
    params: ReviewParams, body: DecisionBody,
    responses: {
      '200': { description: 'The review as decided', schema: ReviewView }, ...AUTH_ERRORS,
      '404': { description: 'not_found: no review for this id', schema: ErrorA },
      '409': { description: 'invalid_state: already decided, the subject moved, or (clear) an exact address match', schema: ErrorA },
    },
    handler: async (req, res) => {
      if (!admin.screening) return sendShapeA(res, 'invalid_state', UNCONFIGURED);
      const keyId = req.principal?.keyId ?? 'unknown';
      const result = move === 'clear'
        ? await admin.screening.clearReview(req.params.subjectId, keyId, req.body.reason)
        : await admin.screening.rejectReview(req.params.subjectId, keyId, req.body.reason);
      if (!result.ok) return sendShapeA(res, REVIEW_ERRORS[result.code], result.message, fieldsOf(result, req));
      res.json(reviewJson(result.value));
    },
  });
  return [
    defineRoute({
      ...common, method: 'get', path: '/v1/admin/screening', operationId: 'screeningStatus',
      summary: 'Sanctions lists loaded, their versions and dates, and stale ones',
      description: 'Platform admin key. The lists stored (every replica loads them), the ones this replica screens with, lists older than SCREENING_MAX_AGE_DAYS, and SCREENING_REQUIRED.',
      responses: {
        '200': { description: 'Screening status', schema: z.object({
          stored: z.array(ListView).meta({ description: 'Each source\'s current list as stored: what every replica loads' }),
          inMemory: z.array(ListView).meta({ description: 'The lists this replica screens with now (a new load reaches it within SCREENING_RELOAD_SECONDS)' }),
          stale: z.array(ListView).meta({ description: 'Lists in memory published more than SCREENING_MAX_AGE_DAYS ago (readiness warnings)' }),
          required: z.boolean().meta({ description: 'Whether live money-outs are refused while no list is loaded' }),
        }).meta({ id: 'ScreeningStatus' }) }, ...AUTH_ERRORS,
        '409': { description: 'invalid_state: screening is not configured in this process', schema: ErrorA },
      },
      handler: async (_req, res) => {
        if (!admin.screening) return sendShapeA(res, 'invalid_state', UNCONFIGURED);
        const status = await admin.screening.status();
        res.json({ stored: status.stored.map(listJson), inMemory: status.inMemory.map(listJson), stale: status.stale.map(listJson), required: status.required });
      },
    }),
    defineRoute<z.infer<typeof LoadListBody>>({
      ...common, method: 'post', path: '/v1/admin/screening/lists', operationId: 'loadScreeningList',
      summary: 'Load a sanctions list file (OFAC SDN.XML or UN consolidated.xml)',
      description: "Platform admin key. Parses and validates the whole file, then replaces that source's list; every replica reloads it within SCREENING_RELOAD_SECONDS. A bad file stores nothing.",
      body: LoadListBody,
      responses: { '201': { description: 'The list now loaded', schema: ListView }, ...AUTH_ERRORS, '409': { description: 'invalid_state: screening is not configured', schema: ErrorA } },
      handler: async (req, res) => {
        if (!admin.screening) return sendShapeA(res, 'invalid_state', UNCONFIGURED);
        const result = await admin.screening.loadList(req.body.source, req.body.document);
        if (!result.ok) return sendShapeA(res, 'validation_error', result.message, fieldsOf(result, req));
        res.status(201).json(listJson(result.value));
      },
    }),
    defineRoute<undefined, { status?: ReviewStatus; kind?: ReviewSubject; limit: number }>({
      ...common, method: 'get', path: '/v1/admin/compliance-reviews', operationId: 'listComplianceReviews',
      summary: 'Payments, customers and deposits held by sanctions screening, oldest first',
      description: 'Platform admin key. The one review queue: each held payment, customer or deposit with its hits (list, entry id, matched name and score, or listed address).',
      query: z.strictObject({
        status: z.enum(REVIEW_STATUSES).optional().meta({ description: 'Only reviews in this status; all when absent' }),
        kind: z.enum(REVIEW_SUBJECTS).optional().meta({ description: 'Only reviews of this kind of subject; all when absent' }),
        limit: z.coerce.number().int().min(1).max(500).default(100).meta({ description: 'Most reviews to return, 1 to 500', example: 100 }),
      }),
      responses: { '200': { description: 'Reviews', schema: z.array(ReviewView) }, ...AUTH_ERRORS, '409': { description: 'invalid_state: screening is not configured', schema: ErrorA } },
      handler: async (req, res) => {
        if (!admin.screening) return sendShapeA(res, 'invalid_state', UNCONFIGURED);
        res.json((await admin.screening.listReviews(req.query.status, req.query.limit, req.query.kind)).map(reviewJson));
      },
    }),
    decision('clear'),
    decision('reject'),
  ];
}
