import type { Response } from 'express';
import { z } from 'zod';
import type { AuditCursor, AuditEntry, AuditFilter } from '../../core/operators/audit-log';
import { OPERATOR_ROLES, OPERATOR_STATUSES, type OperatorRole, type OperatorStatus } from '../../core/operators/operator';
import type { OperatorAdminErrorCode } from '../../core/operators/operator-admin';
import { MAX_AUDIT_PAGE, type OperatorApplication } from '../../core/operators/operator-application';
import type { QueueCounts } from '../../core/operators/operator-queues';
import type { ShapeACode } from '../contract/error-codes';
import { AUTH_ERRORS, ErrorA } from './common.schema';
import { responseRequestId, sendShapeA } from './http-errors';
import { auditActorOf } from './operator-gate';
import { OperatorViewSchema } from './operator.routes';
import { defineRoute, type RouteSpec } from './route';

/** Every operator-management failure mapped to shape A; exhaustive by type. */
const OPERATOR_ERRORS: Record<OperatorAdminErrorCode, ShapeACode> = {
  validation_error: 'validation_error',
  not_found: 'not_found',
  duplicate_operator: 'duplicate_operator',
  invalid_state: 'invalid_state',
};

const OperatorParams = z.object({ operatorId: z.string().max(64).meta({ description: 'Operator id (opr_...)', example: 'opr_01JD4Y9R3T6V8X0Z2B4D6F8H0K' }) });

const AuditEntrySchema = z.object({
  id: z.string().meta({ description: 'Row id (aud_ + ULID)', example: 'aud_01JD4Y9R3T6V8X0Z2B4D6F8H0K' }),
  at: z.iso.datetime().meta({ description: 'When', example: '2026-11-27T09:41:07.512Z' }),
  actorKind: z.enum(['session', 'admin_key', 'cli', 'system']).meta({ description: 'session: a signed-in operator; admin_key: an admin API key (acts as admin); cli: the operator CLI; system: the service itself' }),
  actorId: z.string().meta({ description: 'opr_..., key_..., cli:<user> or system', example: 'opr_01JD4Y9R3T6V8X0Z2B4D6F8H0K' }),
  actorRole: z.enum(OPERATOR_ROLES).meta({ description: 'The role the actor acted with' }),
  action: z.string().meta({ description: "The operation, by its operationId (e.g. updateTenant, retryRefund) or signIn, signOut, signOutEverywhere", example: 'updateTenant' }),
  targetType: z.string().meta({ description: 'tenant, api_key, deposit, payment, refund, rate_pin, rate_spread, compliance_review, screening_list, operator', example: 'tenant' }),
  targetId: z.string().nullable().meta({ description: 'The target id', example: 'ten_01JD4Y9R3T6V8X0Z2B4D6F8H0K' }),
  before: z.unknown().meta({ description: 'The target before the action (JSON; null when not recorded)', example: { name: 'Acme Wallet', rateLimitPerMinute: null } }),
  after: z.unknown().meta({ description: 'The target after the action (JSON); never a secret', example: { name: 'Acme Wallet', rateLimitPerMinute: 1200 } }),
  reason: z.string().nullable().meta({ description: 'The reason the actor gave', example: null }),
  requestId: z.string().nullable().meta({ description: 'Request-Id of the API call; null from the CLI', example: 'req_01JD4Y9R3T6V8X0Z2B4D6F8H0K' }),
}).meta({ id: 'AuditEntry' });

const AuditFilterQuery = z.strictObject({
  actorId: z.string().max(300).optional().meta({ description: 'Only this actor (opr_..., key_..., cli:<user>)' }),
  action: z.string().max(80).optional().meta({ description: 'Only this action', example: 'retryRefund' }),
  targetType: z.string().max(40).optional().meta({ description: 'Only this target type', example: 'refund' }),
  targetId: z.string().max(200).optional().meta({ description: 'Only this target' }),
  from: z.iso.datetime().optional().meta({ description: 'At or after this instant' }),
  to: z.iso.datetime().optional().meta({ description: 'Before this instant' }),
});
const AuditListQuery = AuditFilterQuery.extend({
  limit: z.coerce.number().int().min(1).max(MAX_AUDIT_PAGE).default(50).meta({ description: `Rows per page, 1 to ${MAX_AUDIT_PAGE}`, example: 50 }),
  cursor: z.string().max(200).optional().meta({ description: "nextCursor of the previous page" }),
});
type FilterQuery = z.infer<typeof AuditFilterQuery>;

const filterOf = (q: FilterQuery): AuditFilter => ({
  ...(q.actorId ? { actorId: q.actorId } : {}), ...(q.action ? { action: q.action } : {}),
  ...(q.targetType ? { targetType: q.targetType } : {}), ...(q.targetId ? { targetId: q.targetId } : {}),
  ...(q.from ? { from: new Date(q.from) } : {}), ...(q.to ? { to: new Date(q.to) } : {}),
});

/** Opaque cursor: base64url of `<ISO time>|<row id>`. */
const encodeCursor = (e: AuditEntry) => Buffer.from(`${e.at.toISOString()}|${e.id}`).toString('base64url');
function decodeCursor(text: string): AuditCursor | undefined {
  const [at, id, extra] = Buffer.from(text, 'base64url').toString('utf8').split('|');
  const when = new Date(at ?? '');
  return id && extra === undefined && !Number.isNaN(when.getTime()) && /^aud_[0-9A-Z]{26}$/.test(id) ? { at: when, id } : undefined;
}

const wire = (e: AuditEntry) => ({
  id: e.id, at: e.at.toISOString(), actorKind: e.actor.kind, actorId: e.actor.id, actorRole: e.actor.role, action: e.action,
  targetType: e.targetType, targetId: e.targetId, before: e.before ?? null, after: e.after ?? null, reason: e.reason, requestId: e.requestId,
});

const CSV_COLUMNS = ['id', 'at', 'actorKind', 'actorId', 'actorRole', 'action', 'targetType', 'targetId', 'before', 'after', 'reason', 'requestId'] as const;
/**
 * One CSV field (RFC 4180): quoted when it holds a comma, quote or line break; a leading =, +, - or @
 * is prefixed with ' so a spreadsheet never runs it as a formula (OWASP CSV injection).
 */
export function csvField(value: unknown): string {
  let text = value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Writes `chunk`, waiting for the socket to drain when its buffer is full (bounded memory). */
async function writeChunk(res: Response, chunk: string): Promise<void> {
  if (!res.write(chunk)) await new Promise<void>((resolve) => res.once('drain', resolve));
}

/**
 * Operator management and the audit log (docs/decisions.md § Operators: sign-in, sessions, roles,
 * audit log), for admin keys and admin operators.
 */
export function operatorAdminRoutes(operators: OperatorApplication, queues: () => Promise<QueueCounts>): RouteSpec<any, any, any>[] {
  const common = { tags: ['Operators'], auth: 'admin', role: 'admin' } as const;
  const actorIn = (res: Response) => auditActorOf(res)!;
  const requestIdIn = (res: Response) => responseRequestId(res) || null;
  return [
    defineRoute({
      ...common, role: 'viewer', method: 'get', path: '/v1/admin/queues', operationId: 'operatorQueues',
      summary: 'How many items each queue that needs a person holds now', description: "The console's front page: refunds pending and failed, reconciliation findings on open payments, "
        + 'deposit findings, compliance reviews pending, and payments stuck at provider_accepted (past OPERATOR_STUCK_PAYMENT_MINUTES). Any role.',
      responses: { '200': { description: 'The counts', schema: z.object({
        refundsPending: z.number().int().meta({ description: 'Onchain refunds owed, not sent yet (GET /v1/admin/refunds?status=pending)', example: 2 }),
        refundsFailed: z.number().int().meta({ description: 'Onchain refunds that failed: retry or record (GET /v1/admin/refunds?status=failed)', example: 1 }),
        reconciliationFindings: z.number().int().meta({ description: 'Mismatches on open payments (GET /v1/admin/reconciliation/findings)', example: 0 }),
        depositFindings: z.number().int().meta({ description: 'Transfers to deposit addresses never credited, all time (GET /v1/admin/deposit-findings)', example: 0 }),
        complianceReviewsPending: z.number().int().meta({ description: 'Payments held by screening (GET /v1/admin/compliance-reviews?status=pending)', example: 0 }),
        stuckPayments: z.number().int().meta({ description: 'Payments at provider_accepted for longer than stuckAfterMinutes', example: 3 }),
        stuckAfterMinutes: z.number().int().meta({ description: 'OPERATOR_STUCK_PAYMENT_MINUTES', example: 60 }),
      }).meta({ id: 'OperatorQueues' }) }, ...AUTH_ERRORS },
      handler: async (_req, res) => void res.json(await queues()),
    }),
    defineRoute<{ email: string; role: OperatorRole; password: string }>({
      ...common, method: 'post', path: '/v1/admin/operators', operationId: 'createOperator',
      summary: 'Create a local operator account; its TOTP secret is in this answer only',
      description: 'Creates an operator who signs in with e-mail, password and TOTP (POST /v1/operator/sign-in). The answer carries the TOTP secret and the otpauth:// URI to scan, once. '
        + 'Operators from the identity provider need no account: they are created at their first sign-in.',
      body: z.strictObject({
        email: z.string().min(3).max(254).meta({ description: 'E-mail address, unique (stored lower-case)', example: 'ama@example.com' }),
        role: z.enum(OPERATOR_ROLES).meta({ description: 'viewer, operator or admin' }),
        password: z.string().min(12).max(1024).meta({ description: 'At least 12 characters; hashed with argon2id, never stored or logged', example: 'correct horse battery staple' }),
      }),
      responses: {
        '201': { description: 'Created', schema: OperatorViewSchema.extend({
          totpSecret: z.string().meta({ description: 'Base32 TOTP secret; shown once', example: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP' }),
          otpauthUrl: z.string().meta({ description: 'otpauth:// URI for an authenticator app; shown once', example: 'otpauth://totp/Payout%20gateway:ama%40example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Payout%20gateway' }),
        }).meta({ id: 'CreatedOperator' }) },
        ...AUTH_ERRORS, '409': { description: 'duplicate_operator: the e-mail is taken', schema: ErrorA },
      },
      handler: async (req, res) => {
        const result = await operators.createOperator(req.body, actorIn(res), requestIdIn(res));
        if (!result.ok) return sendShapeA(res, OPERATOR_ERRORS[result.code], result.message);
        res.status(201).json(result.value);
      },
    }),
    defineRoute({
      ...common, method: 'get', path: '/v1/admin/operators', operationId: 'listOperators',
      summary: 'Every operator account, oldest first (no secrets)', description: 'Local and identity-provider operators with their roles and status.',
      responses: { '200': { description: 'Operators', schema: z.array(OperatorViewSchema) }, ...AUTH_ERRORS },
      handler: async (_req, res) => void res.json(await operators.listOperators()),
    }),
    defineRoute<{ role?: OperatorRole; status?: OperatorStatus }, undefined, { operatorId: string }>({
      ...common, method: 'patch', path: '/v1/admin/operators/{operatorId}', operationId: 'updateOperator',
      summary: "Change an operator's role, or disable or enable the account",
      description: 'Disabling ends every session of the operator at once; a role change applies from the next request. The last active admin cannot be demoted or disabled (409 invalid_state). '
        + "An identity-provider operator's role is set again from the provider's claims at each sign-in.",
      params: OperatorParams,
      body: z.strictObject({
        role: z.enum(OPERATOR_ROLES).optional().meta({ description: 'The new role' }),
        status: z.enum(OPERATOR_STATUSES).optional().meta({ description: 'active or disabled' }),
      }),
      responses: {
        '200': { description: 'The operator after the change', schema: OperatorViewSchema }, ...AUTH_ERRORS,
        '404': { description: 'not_found', schema: ErrorA }, '409': { description: 'invalid_state: it would leave no active admin', schema: ErrorA },
      },
      handler: async (req, res) => {
        const result = await operators.updateOperator(req.params.operatorId, req.body, actorIn(res), requestIdIn(res));
        if (!result.ok) return sendShapeA(res, OPERATOR_ERRORS[result.code], result.message);
        res.json(result.value);
      },
    }),
    defineRoute<undefined, undefined, { operatorId: string }>({
      ...common, method: 'post', path: '/v1/admin/operators/{operatorId}/sign-out-everywhere', operationId: 'endOperatorSessions',
      summary: "End every session of an operator (a lost laptop)", description: 'Revokes all live sessions of the operator; the account stays active.',
      params: OperatorParams,
      responses: { '200': { description: 'Sessions ended', schema: z.object({ sessionsEnded: z.number().int().meta({ description: 'How many were live', example: 1 }) }) }, ...AUTH_ERRORS },
      handler: async (req, res) => void res.json({ sessionsEnded: await operators.signOutEverywhere(req.params.operatorId, actorIn(res), requestIdIn(res)) }),
    }),
    defineRoute<undefined, z.infer<typeof AuditListQuery>>({
      ...common, method: 'get', path: '/v1/admin/audit-log', operationId: 'listAuditLog',
      summary: 'The audit log, newest first, filtered, a page at a time',
      description: 'Every operator and admin action through the API, the console or the CLI: who (actor kind, id, role), when, what, the target, before and after, the reason and the request id. '
        + 'Append-only: PostgreSQL refuses to update or delete a row. Page with nextCursor.',
      query: AuditListQuery,
      responses: {
        '200': { description: 'A page', schema: z.object({
          data: z.array(AuditEntrySchema).meta({ description: 'Rows, newest first' }),
          nextCursor: z.string().nullable().meta({ description: 'Pass as cursor for the next page; null on the last', example: null }),
        }).meta({ id: 'AuditLogPage' }) },
        ...AUTH_ERRORS,
      },
      handler: async (req, res) => {
        const cursor = req.query.cursor === undefined ? undefined : decodeCursor(req.query.cursor);
        if (req.query.cursor !== undefined && !cursor) return sendShapeA(res, 'validation_error', 'Invalid request: query.cursor is not a cursor this list gave', [{ path: 'query.cursor', message: 'Unknown cursor' }]);
        const rows = await operators.listAuditLog(filterOf(req.query), cursor, req.query.limit + 1);
        const page = rows.slice(0, req.query.limit);
        res.json({ data: page.map(wire), nextCursor: rows.length > req.query.limit ? encodeCursor(page[page.length - 1]!) : null });
      },
    }),
    defineRoute<undefined, FilterQuery>({
      ...common, method: 'get', path: '/v1/admin/audit-log/export', operationId: 'exportAuditLog',
      summary: 'The filtered audit log as CSV, streamed', description: 'The same rows and filters as listAuditLog, all of them, newest first, as text/csv (RFC 4180) streamed in batches.',
      query: AuditFilterQuery,
      responses: { '200': { description: 'text/csv: a header line, then one line per row; before and after as JSON' }, ...AUTH_ERRORS },
      handler: async (req, res) => {
        res.status(200).set({ 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': 'attachment; filename="audit-log.csv"' });
        await writeChunk(res, `${CSV_COLUMNS.join(',')}\r\n`);
        for await (const batch of operators.streamAuditLog(filterOf(req.query))) {
          await writeChunk(res, batch.map((e) => { const row = wire(e); return `${CSV_COLUMNS.map((c) => csvField(row[c])).join(',')}\r\n`; }).join(''));
        }
        res.end();
      },
    }),
  ];
}
