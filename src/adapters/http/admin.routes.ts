import { z } from 'zod';
import { API_KEY_SCOPES } from '../../core/auth/api-key';
import type { AdminApplication } from '../../core/admin/admin-application';
import type { AdminErrorCode } from '../../core/admin/tenant-admin';
import { MAX_RATE_LIMIT_PER_MINUTE, MAX_WEBHOOK_LIMIT, type TenantPatch } from '../../core/admin/update-tenant';
import { SIMULATED_OUTCOMES, type SimulateErrorCode } from '../../core/admin/simulate-payment';
import { BLOCKCHAINS } from '../../core/catalog/catalog';
import type { DepositErrorCode } from '../../core/ledger/record-deposit';
import { STABLECOINS } from '../../core/shared/money';
import { AmountInput } from '../contract/amount.schema';
import type { ShapeACode } from '../contract/error-codes';
import { AUTH_ERRORS, DecimalString, ErrorA } from './common.schema';
import { sendShapeA } from './http-errors';
import { PaymentResponse } from './payment.schema';
import { defineRoute, type RouteSpec } from './route';
import { reconciliationRoutes } from './reconciliation.routes';
import { refundRoutes } from './refund.routes';

/** Every admin failure code mapped to shape A; exhaustive by type. */
const ADMIN_ERRORS: Record<AdminErrorCode | DepositErrorCode | SimulateErrorCode, ShapeACode> = {
  validation_error: 'validation_error',
  not_found: 'not_found',
  duplicate_deposit: 'duplicate_deposit',
  forbidden: 'forbidden',
  invalid_state: 'invalid_state',
};

const TenantView = z.object({
  tenantId: z.string(), name: z.string(), environment: z.enum(['sandbox', 'live']),
  payoutSourceCurrency: z.enum(STABLECOINS).meta({ description: 'Stablecoin funding legacy payouts (POST /momo/payout)' }),
  payoutBlockchain: z.enum(BLOCKCHAINS).meta({ description: "Chain of legacy payouts' stablecoin leg" }),
  payoutRefundAddress: z.string().nullable().meta({ description: 'Where failed legacy payouts are refunded; null refuses legacy payouts (tenant_not_configured)' }),
  rateLimitPerMinute: z.number().int().nullable().meta({ description: 'Requests per minute per key; null: the service default' }),
  webhookLimit: z.number().int().nullable().meta({ description: 'Webhook registrations the tenant may have; null: WEBHOOK_MAX_REGISTRATIONS_PER_TENANT' }),
  createdAt: z.iso.datetime(),
}).meta({ id: 'Tenant' });
const RateLimitInput = z.number().int().min(1).max(MAX_RATE_LIMIT_PER_MINUTE);
/** Body of PATCH /v1/admin/tenants/{tenantId}; the operator CLI parses its flags with it too. */
export const TenantPatchBody = z.strictObject({
  name: z.string().min(1).max(200).optional(),
  rateLimitPerMinute: RateLimitInput.nullable().optional().meta({ description: 'Requests per minute per key; null resets to RATE_LIMIT_PER_MINUTE' }),
  webhookLimit: z.number().int().min(0).max(MAX_WEBHOOK_LIMIT).nullable().optional()
    .meta({ description: 'Webhook registrations the tenant may have (existing ones above it stay); null resets to WEBHOOK_MAX_REGISTRATIONS_PER_TENANT' }),
  payoutSourceCurrency: z.enum(STABLECOINS).optional(),
  payoutBlockchain: z.enum(BLOCKCHAINS).optional(),
  payoutRefundAddress: z.string().max(64).nullable().optional().meta({ description: 'A wallet address on the payout blockchain; null refuses legacy payouts' }),
}).meta({ id: 'TenantPatch' });
const KeyView = z.object({
  keyId: z.string(), tenantId: z.string().nullable(), scope: z.enum(API_KEY_SCOPES), label: z.string(), prefix: z.string(),
  createdAt: z.iso.datetime(), revokedAt: z.iso.datetime().nullable(),
}).meta({ id: 'ApiKey' });
const IssuedKey = KeyView.extend({ apiKey: z.string().meta({ description: 'The key; shown once, never again' }) }).meta({ id: 'IssuedApiKey' });
const TenantParams = z.object({ tenantId: z.string().max(64) });
const NOT_FOUND = { '404': { description: 'not_found', schema: ErrorA } } as const;

/** Routes of the Admin tag (docs/decisions.md § Authentication, tenants and keys and § Analytics, admin and health); every one needs an admin-scoped key. */
export function adminRoutes(admin: AdminApplication): RouteSpec<any, any, any>[] {
  const common = { tags: ['Admin'], auth: 'admin' } as const;
  const fail = (res: Parameters<RouteSpec['handler']>[1], e: { code: keyof typeof ADMIN_ERRORS; message: string }) => sendShapeA(res, ADMIN_ERRORS[e.code], e.message);
  return [
    defineRoute<{ name: string; environment?: 'sandbox' | 'live'; rateLimitPerMinute?: number }>({
      ...common, method: 'post', path: '/v1/admin/tenants', operationId: 'createTenant', summary: 'Create a tenant (wallet issuer)',
      body: z.strictObject({
        name: z.string().min(1).max(200), environment: z.enum(['sandbox', 'live']).optional(),
        rateLimitPerMinute: RateLimitInput.optional().meta({ description: 'Requests per minute per key; default RATE_LIMIT_PER_MINUTE' }),
      }),
      responses: { '201': { description: 'Created', schema: TenantView }, ...AUTH_ERRORS },
      handler: async (req, res) => {
        const result = await admin.createTenant(req.body);
        if (!result.ok) return fail(res, result);
        res.status(201).json(result.value);
      },
    }),
    defineRoute({
      ...common, method: 'get', path: '/v1/admin/tenants', operationId: 'listTenants', summary: 'List tenants',
      responses: { '200': { description: 'Tenants, oldest first', schema: z.array(TenantView) }, ...AUTH_ERRORS },
      handler: async (_req, res) => void res.json(await admin.listTenants()),
    }),
    defineRoute<TenantPatch, undefined, { tenantId: string }>({
      ...common, method: 'patch', path: '/v1/admin/tenants/{tenantId}', operationId: 'updateTenant',
      summary: "Change a tenant's name, legacy payout settings, rate limit or webhook cap; absent fields stay as they are",
      params: TenantParams, body: TenantPatchBody,
      responses: { '200': { description: 'The tenant after the change', schema: TenantView }, ...AUTH_ERRORS, ...NOT_FOUND },
      handler: async (req, res) => {
        const result = await admin.updateTenant(req.params.tenantId, req.body);
        if (!result.ok) return fail(res, result);
        res.json(result.value);
      },
    }),
    defineRoute<{ scope: 'issuer' | 'admin'; label?: string }, undefined, { tenantId: string }>({
      ...common, method: 'post', path: '/v1/admin/tenants/{tenantId}/api-keys', operationId: 'issueApiKey', summary: 'Issue an API key; shown once',
      params: TenantParams,
      body: z.strictObject({
        scope: z.enum(API_KEY_SCOPES).meta({ description: 'issuer. admin is refused (400 validation_error): admin keys are platform keys that belong to no tenant' }),
        label: z.string().max(200).optional(),
      }),
      responses: { '201': { description: 'Issued', schema: IssuedKey }, ...AUTH_ERRORS, ...NOT_FOUND },
      handler: async (req, res) => {
        const result = await admin.issueApiKey(req.params.tenantId, req.body);
        if (!result.ok) return fail(res, result);
        res.status(201).json(result.value);
      },
    }),
    defineRoute<undefined, undefined, { tenantId: string }>({
      ...common, method: 'get', path: '/v1/admin/tenants/{tenantId}/api-keys', operationId: 'listApiKeys', summary: "List a tenant's keys (no secrets)",
      params: TenantParams,
      responses: { '200': { description: 'Keys', schema: z.array(KeyView) }, ...AUTH_ERRORS, ...NOT_FOUND },
      handler: async (req, res) => {
        const result = await admin.listApiKeys(req.params.tenantId);
        if (!result.ok) return fail(res, result);
        res.json(result.value);
      },
    }),
    defineRoute<{ label?: string }>({
      ...common, method: 'post', path: '/v1/admin/api-keys', operationId: 'issueAdminKey',
      summary: 'Issue a platform admin key (no tenant); shown once',
      body: z.strictObject({ label: z.string().max(200).optional().meta({ description: 'A note shown in key lists' }) }),
      responses: { '201': { description: 'Issued', schema: IssuedKey }, ...AUTH_ERRORS },
      handler: async (req, res) => void res.status(201).json(await admin.issueAdminKey(req.body)),
    }),
    defineRoute({
      ...common, method: 'get', path: '/v1/admin/api-keys', operationId: 'listAdminKeys', summary: "List the platform's admin keys (no secrets)",
      responses: { '200': { description: 'Keys', schema: z.array(KeyView) }, ...AUTH_ERRORS },
      handler: async (_req, res) => void res.json(await admin.listAdminKeys()),
    }),
    defineRoute<undefined, undefined, { keyId: string }>({
      ...common, method: 'delete', path: '/v1/admin/api-keys/{keyId}', operationId: 'revokeApiKey', summary: 'Revoke a key at once, everywhere',
      params: z.object({ keyId: z.string().max(64) }),
      responses: { '204': { description: 'Revoked' }, ...AUTH_ERRORS, ...NOT_FOUND },
      handler: async (req, res) => {
        const result = await admin.revokeApiKey(req.params.keyId);
        if (!result.ok) return fail(res, result);
        res.status(204).end();
      },
    }),
    defineRoute<{ currency: 'USDC' | 'USDT'; amount: number | string; blockchain: 'BSC' | 'SOLANA'; txHash: string }, undefined, { tenantId: string }>({
      ...common, method: 'post', path: '/v1/admin/tenants/{tenantId}/deposits', operationId: 'recordDeposit',
      summary: "Credit an onchain deposit to a tenant's available balance, once per blockchain and transaction hash across all tenants",
      params: TenantParams,
      body: z.strictObject({
        currency: z.enum(STABLECOINS), amount: AmountInput, blockchain: z.enum(BLOCKCHAINS),
        txHash: z.string().min(1).max(90).meta({
          description: 'BSC: 0x and 64 hex digits (any case; stored lower-case). SOLANA: the base58 transaction signature (64 bytes). No surrounding whitespace.',
        }),
      }),
      responses: {
        '201': { description: 'Credited; txHash in canonical form', schema: z.object({ currency: z.enum(STABLECOINS), amount: DecimalString, txHash: z.string() }) },
        ...AUTH_ERRORS, ...NOT_FOUND, '409': { description: 'duplicate_deposit: this blockchain and hash were already credited, to this or any tenant', schema: ErrorA },
      },
      handler: async (req, res) => {
        const result = await admin.recordDeposit(req.params.tenantId, req.body);
        if (!result.ok) return fail(res, result);
        res.status(201).json(result.value);
      },
    }),
    defineRoute<undefined, undefined, { paymentId: string }>({
      ...common, method: 'get', path: '/v1/admin/payments/{paymentId}', operationId: 'adminGetPayment', summary: "Any tenant's payment",
      params: z.object({ paymentId: z.string().max(64) }),
      responses: { '200': { description: 'The payment and its tenant', schema: PaymentResponse.extend({
        tenantId: z.string(),
        provider: z.string().nullable().meta({ description: 'The payout provider that has the payment (sandbox, mpesa, mtn_momo, paystack); null before any submission' }),
      }) }, ...AUTH_ERRORS, ...NOT_FOUND },
      handler: async (req, res) => {
        const result = await admin.getPayment(req.params.paymentId);
        if (!result.ok) return fail(res, result);
        res.json(result.value);
      },
    }),
    defineRoute<{ outcome: (typeof SIMULATED_OUTCOMES)[number] }, undefined, { paymentId: string }>({
      ...common, method: 'post', path: '/v1/admin/payments/{paymentId}/simulate', operationId: 'simulatePayment',
      summary: 'Force a provider result on a sandbox payment',
      params: z.object({ paymentId: z.string().max(64) }), body: z.strictObject({ outcome: z.enum(SIMULATED_OUTCOMES) }),
      responses: {
        '200': { description: 'The payment after the move', schema: PaymentResponse }, ...AUTH_ERRORS, ...NOT_FOUND,
        '409': { description: 'invalid_state: already final', schema: ErrorA },
      },
      handler: async (req, res) => {
        const result = await admin.simulatePayment(req.params.paymentId, req.body.outcome);
        if (!result.ok) return fail(res, result);
        res.json(result.value);
      },
    }),
    ...reconciliationRoutes(admin),
    ...refundRoutes(admin),
  ];
}
