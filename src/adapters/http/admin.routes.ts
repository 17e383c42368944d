import type { Err } from '../../core/shared/result';
import { z } from 'zod';
import { API_KEY_SCOPES } from '../../core/auth/api-key';
import type { AdminApplication } from '../../core/admin/admin-application';
import type { AdminErrorCode } from '../../core/admin/tenant-admin';
import { MAX_RATE_LIMIT_PER_MINUTE, MAX_WEBHOOK_LIMIT, type TenantPatch } from '../../core/admin/update-tenant';
import { SIMULATED_OUTCOMES, type SimulateErrorCode } from '../../core/admin/simulate-payment';
import { BLOCKCHAINS } from '../../core/catalog/catalog';
import { MAX_DEPOSIT_INDEX, type DepositErrorCode } from '../../core/ledger/record-deposit';
import { STABLECOINS } from '../../core/shared/money';
import { AmountInput } from '../contract/amount.schema';
import type { ShapeACode } from '../contract/error-codes';
import { AUTH_ERRORS, DecimalString, ErrorA } from './common.schema';
import { fieldsOf, sendShapeA, type RequestParts } from './http-errors';
import { PaymentResponse } from './payment.schema';
import { RoutingDecisionSchema } from './routing-decision.schema';
import { defineRoute, type RouteSpec } from './route';
import { reconciliationRoutes } from './reconciliation.routes';
import { refundRoutes } from './refund.routes';
import { depositFindingRoutes } from './deposit.routes';
import { rateAdminRoutes } from './rates-admin.routes';
import { PricingRecordView, pricingAdminRoutes } from './pricing-admin.routes';
import { screeningAdminRoutes } from './screening-admin.routes';

/** Every admin failure code mapped to shape A; exhaustive by type. */
const ADMIN_ERRORS: Record<AdminErrorCode | DepositErrorCode | SimulateErrorCode, ShapeACode> = {
  validation_error: 'validation_error',
  not_found: 'not_found',
  duplicate_deposit: 'duplicate_deposit',
  forbidden: 'forbidden',
  invalid_state: 'invalid_state',
};

const TenantView = z.object({
  tenantId: z.string().meta({ description: 'Tenant id (ten_ + ULID)', example: 'ten_01JD4Y9R3T6V8X0Z2B4D6F8H0K' }),
  name: z.string().meta({ description: 'Display name', example: 'Acme Wallet' }),
  environment: z.enum(['sandbox', 'live']).meta({ description: 'sandbox tenants never move real money' }),
  payoutSourceCurrency: z.enum(STABLECOINS).meta({ description: 'Stablecoin funding legacy payouts (POST /momo/payout)' }),
  payoutBlockchain: z.enum(BLOCKCHAINS).meta({ description: "Chain of legacy payouts' stablecoin leg" }),
  payoutRefundAddress: z.string().nullable().meta({ description: 'Where failed legacy payouts are refunded; null refuses legacy payouts (tenant_not_configured)', example: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU' }),
  rateLimitPerMinute: z.number().int().nullable().meta({ description: 'Requests per minute per key; null: the service default', example: null }),
  webhookLimit: z.number().int().nullable().meta({ description: 'Webhook registrations the tenant may have; null: WEBHOOK_MAX_REGISTRATIONS_PER_TENANT', example: null }),
  createdAt: z.iso.datetime().meta({ description: 'When the tenant was created', example: '2026-11-23T09:41:07.512Z' }),
}).meta({ id: 'Tenant' });
const RateLimitInput = z.number().int().min(1).max(MAX_RATE_LIMIT_PER_MINUTE);
/** Body of PATCH /v1/admin/tenants/{tenantId}; the operator CLI parses its flags with it too. */
export const TenantPatchBody = z.strictObject({
  name: z.string().min(1).max(200).optional().meta({ description: 'New display name', example: 'Acme Wallet' }),
  rateLimitPerMinute: RateLimitInput.nullable().optional().meta({ description: 'Requests per minute per key; null resets to RATE_LIMIT_PER_MINUTE' }),
  webhookLimit: z.number().int().min(0).max(MAX_WEBHOOK_LIMIT).nullable().optional()
    .meta({ description: 'Webhook registrations the tenant may have (existing ones above it stay); null resets to WEBHOOK_MAX_REGISTRATIONS_PER_TENANT' }),
  payoutSourceCurrency: z.enum(STABLECOINS).optional().meta({ description: 'Stablecoin funding legacy payouts' }),
  payoutBlockchain: z.enum(BLOCKCHAINS).optional().meta({ description: "Chain of legacy payouts' stablecoin leg" }),
  payoutRefundAddress: z.string().max(64).nullable().optional().meta({ description: 'A wallet address on the payout blockchain; null refuses legacy payouts' }),
}).meta({ id: 'TenantPatch' });
const KeyView = z.object({
  keyId: z.string().meta({ description: 'Key id (key_ + ULID)', example: 'key_01JD4YB2C4E6G8J0L2N4Q6S8U0' }),
  tenantId: z.string().nullable().meta({ description: 'The tenant an issuer key acts for; null for admin keys', example: 'ten_01JD4Y9R3T6V8X0Z2B4D6F8H0K' }),
  scope: z.enum(API_KEY_SCOPES).meta({ description: 'issuer: acts for its tenant; admin: platform operator, no tenant' }),
  label: z.string().meta({ description: 'A note shown in key lists', example: 'backend prod' }),
  prefix: z.string().meta({ description: 'The first characters of the key, to recognise it', example: 'sk_live_Q3v9' }),
  createdAt: z.iso.datetime().meta({ description: 'When the key was issued', example: '2026-11-23T09:41:07.512Z' }),
  revokedAt: z.iso.datetime().nullable().meta({ description: 'When it was revoked; null while valid', example: null }),
}).meta({ id: 'ApiKey' });
const IssuedKey = KeyView.extend({ apiKey: z.string().meta({ description: 'The key; shown once, never again', example: 'sk_live_Q3v9Lm2Xr8Tn5Wc1Hb7Kd4Fp6Zs0Jy3Gq' }) }).meta({ id: 'IssuedApiKey' });
const TenantParams = z.object({ tenantId: z.string().max(64).meta({ description: 'Tenant id (ten_...)', example: 'ten_01JD4Y9R3T6V8X0Z2B4D6F8H0K' }) });
const NOT_FOUND = { '404': { description: 'not_found', schema: ErrorA } } as const;

/** Routes of the Admin tag (docs/decisions.md § Authentication, tenants and keys and § Analytics, admin and health); every one needs an admin-scoped key. */
export function adminRoutes(admin: AdminApplication): RouteSpec<any, any, any>[] {
  const common = { tags: ['Admin'], auth: 'admin' } as const;
  const fail = (res: Parameters<RouteSpec['handler']>[1], e: Err<keyof typeof ADMIN_ERRORS>, req: RequestParts) => sendShapeA(res, ADMIN_ERRORS[e.code], e.message, fieldsOf(e, req));
  return [
    defineRoute<{ name: string; environment?: 'sandbox' | 'live'; rateLimitPerMinute?: number }>({
      ...common, method: 'post', path: '/v1/admin/tenants', operationId: 'createTenant',
      description: 'Creates a tenant (a wallet issuer), sandbox or live; give it keys with issueApiKey.', summary: 'Create a tenant (wallet issuer)',
      body: z.strictObject({
        name: z.string().min(1).max(200).meta({ description: 'Display name', example: 'Acme Wallet' }),
        environment: z.enum(['sandbox', 'live']).optional().meta({ description: 'Default sandbox' }),
        rateLimitPerMinute: RateLimitInput.optional().meta({ description: 'Requests per minute per key; default RATE_LIMIT_PER_MINUTE' }),
      }),
      responses: { '201': { description: 'Created', schema: TenantView }, ...AUTH_ERRORS },
      handler: async (req, res) => {
        const result = await admin.createTenant(req.body);
        if (!result.ok) return fail(res, result, req);
        res.status(201).json(result.value);
      },
    }),
    defineRoute({
      ...common, method: 'get', path: '/v1/admin/tenants', operationId: 'listTenants',
      description: 'Every tenant with its settings.', summary: 'List tenants',
      responses: { '200': { description: 'Tenants, oldest first', schema: z.array(TenantView) }, ...AUTH_ERRORS },
      handler: async (_req, res) => void res.json(await admin.listTenants()),
    }),
    defineRoute<TenantPatch, undefined, { tenantId: string }>({
      ...common, method: 'patch', path: '/v1/admin/tenants/{tenantId}', operationId: 'updateTenant',
      description: "Changes a tenant's name, payout settings (for legacy payouts), rate limit or webhook limit; omitted fields keep their value; a null limit restores the service default, a null payoutRefundAddress refuses legacy payouts.",
      summary: "Change a tenant's name, legacy payout settings, rate limit or webhook cap; absent fields stay as they are",
      params: TenantParams, body: TenantPatchBody,
      responses: { '200': { description: 'The tenant after the change', schema: TenantView }, ...AUTH_ERRORS, ...NOT_FOUND },
      handler: async (req, res) => {
        const result = await admin.updateTenant(req.params.tenantId, req.body);
        if (!result.ok) return fail(res, result, req);
        res.json(result.value);
      },
    }),
    defineRoute<{ scope: 'issuer' | 'admin'; label?: string }, undefined, { tenantId: string }>({
      ...common, method: 'post', path: '/v1/admin/tenants/{tenantId}/api-keys', operationId: 'issueApiKey',
      description: 'Issues an issuer key for a tenant; the key is in this answer only. Admin keys belong to no tenant and are issued with issueAdminKey.', summary: 'Issue an API key; shown once',
      params: TenantParams,
      body: z.strictObject({
        scope: z.enum(API_KEY_SCOPES).meta({ description: 'issuer. admin is refused (400 validation_error): admin keys are platform keys that belong to no tenant' }),
        label: z.string().max(200).optional().meta({ description: 'A note shown in key lists', example: 'backend prod' }),
      }),
      responses: { '201': { description: 'Issued', schema: IssuedKey }, ...AUTH_ERRORS, ...NOT_FOUND },
      handler: async (req, res) => {
        const result = await admin.issueApiKey(req.params.tenantId, req.body);
        if (!result.ok) return fail(res, result, req);
        res.status(201).json(result.value);
      },
    }),
    defineRoute<undefined, undefined, { tenantId: string }>({
      ...common, method: 'get', path: '/v1/admin/tenants/{tenantId}/api-keys', operationId: 'listApiKeys',
      description: "A tenant's API keys with their prefixes and revocation times; never the keys.", summary: "List a tenant's keys (no secrets)",
      params: TenantParams,
      responses: { '200': { description: 'Keys', schema: z.array(KeyView) }, ...AUTH_ERRORS, ...NOT_FOUND },
      handler: async (req, res) => {
        const result = await admin.listApiKeys(req.params.tenantId);
        if (!result.ok) return fail(res, result, req);
        res.json(result.value);
      },
    }),
    defineRoute<{ label?: string }>({
      ...common, method: 'post', path: '/v1/admin/api-keys', operationId: 'issueAdminKey',
      description: 'Issues a platform admin key (no tenant); the key is in this answer only.',
      summary: 'Issue a platform admin key (no tenant); shown once',
      body: z.strictObject({ label: z.string().max(200).optional().meta({ description: 'A note shown in key lists' }) }),
      responses: { '201': { description: 'Issued', schema: IssuedKey }, ...AUTH_ERRORS },
      handler: async (req, res) => void res.status(201).json(await admin.issueAdminKey(req.body)),
    }),
    defineRoute({
      ...common, method: 'get', path: '/v1/admin/api-keys', operationId: 'listAdminKeys',
      description: 'The platform admin keys with their prefixes and revocation times; never the keys.', summary: "List the platform's admin keys (no secrets)",
      responses: { '200': { description: 'Keys', schema: z.array(KeyView) }, ...AUTH_ERRORS },
      handler: async (_req, res) => void res.json(await admin.listAdminKeys()),
    }),
    defineRoute<undefined, undefined, { keyId: string }>({
      ...common, method: 'delete', path: '/v1/admin/api-keys/{keyId}', operationId: 'revokeApiKey',
      description: 'Revokes a key at once on every replica; its open subscriptions close.', summary: 'Revoke a key at once, everywhere',
      params: z.object({ keyId: z.string().max(64).meta({ description: 'Key id (key_...)', example: 'key_01JD4YB2C4E6G8J0L2N4Q6S8U0' }) }),
      responses: { '204': { description: 'Revoked' }, ...AUTH_ERRORS, ...NOT_FOUND },
      handler: async (req, res) => {
        const result = await admin.revokeApiKey(req.params.keyId);
        if (!result.ok) return fail(res, result, req);
        res.status(204).end();
      },
    }),
    defineRoute<{ currency: 'USDC' | 'USDT'; amount: number | string; blockchain: 'BSC' | 'SOLANA'; txHash: string; index?: number }, undefined, { tenantId: string }>({
      ...common, method: 'post', path: '/v1/admin/tenants/{tenantId}/deposits', operationId: 'recordDeposit',
      description: "An operator's correction: credits a tenant's balance with an onchain deposit at once, under the chain watcher's key (blockchain, transaction hash, index) across all tenants: a key already recorded, by a correction or by the watcher (detected or credited), is 409 duplicate_deposit. Sends deposit.credited.",
      summary: "Credit an onchain deposit to a tenant's available balance (a correction), once per blockchain, transaction hash and index across all tenants",
      params: TenantParams,
      body: z.strictObject({
        currency: z.enum(STABLECOINS).meta({ description: 'Stablecoin deposited' }),
        amount: AmountInput.meta({ description: 'Amount deposited, up to 6 decimal places', example: '25000.000000' }),
        blockchain: z.enum(BLOCKCHAINS).meta({ description: 'Chain of the deposit transaction' }),
        txHash: z.string().min(1).max(90).meta({
          description: 'BSC: 0x and 64 hex digits (any case; stored lower-case). SOLANA: the base58 transaction signature (64 bytes). No surrounding whitespace.',
          example: '0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060',
        }),
        index: z.number().int().min(0).max(MAX_DEPOSIT_INDEX).optional().meta({
          description: "The transfer's log index (BSC) or instruction position (SOLANA) in the transaction; 0 when absent", example: 0,
        }),
      }),
      responses: {
        '201': { description: 'Credited; txHash in canonical form', schema: z.object({
          depositId: z.string().meta({ description: 'The deposit (dep_ + ULID), as GET /v1/deposits/{depositId} shows it to the tenant', example: 'dep_01JD4ZQ8W0Y8M2V6N3C5B7K9TQ' }),
          currency: z.enum(STABLECOINS).meta({ description: 'Stablecoin credited' }),
          amount: DecimalString.meta({ description: 'Amount credited, 6 decimal places', example: '25000.000000' }),
          txHash: z.string().meta({ description: 'The transaction hash in canonical form', example: '0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060' }),
          index: z.number().int().meta({ description: 'The transfer index credited', example: 0 }),
        }) },
        ...AUTH_ERRORS, ...NOT_FOUND, '409': { description: 'duplicate_deposit: this blockchain, hash and index were already recorded, for this or any tenant', schema: ErrorA },
      },
      handler: async (req, res) => {
        const result = await admin.recordDeposit(req.params.tenantId, req.body);
        if (!result.ok) return fail(res, result, req);
        res.status(201).json(result.value);
      },
    }),
    defineRoute<undefined, undefined, { paymentId: string }>({
      ...common, method: 'get', path: '/v1/admin/payments/{paymentId}', operationId: 'adminGetPayment',
      description: "Any tenant's payment, with its tenantId, payout provider, pricing record (mid, spread, fee, sources) and routing decision, for support and disputes.", summary: "Any tenant's payment",
      params: z.object({ paymentId: z.string().max(64).meta({ description: 'Payment id (pay_...)', example: 'pay_01JD4ZQ8W0Y8M2V6N3C5B7K9TQ' }) }),
      responses: { '200': { description: 'The payment and its tenant', schema: PaymentResponse.extend({
        tenantId: z.string().meta({ description: 'The tenant the payment belongs to', example: 'ten_01JD4Y9R3T6V8X0Z2B4D6F8H0K' }),
        provider: z.string().nullable().meta({ description: 'The payout provider that has the payment (sandbox, mpesa, mtn_momo, paystack, pawapay); null before any submission', example: 'sandbox' }),
        pricing: PricingRecordView.nullable().meta({ description: "How it was priced: its quote's basis when it used one, else the current rate's; null on payments stored before pricing records were kept" }),
        routing: RoutingDecisionSchema.nullable().meta({ description: 'Its latest payout routing decision and the figures it was made on; null for sandbox payments and before a live payment was first routed' }),
      }) }, ...AUTH_ERRORS, ...NOT_FOUND },
      handler: async (req, res) => {
        const result = await admin.getPayment(req.params.paymentId);
        if (!result.ok) return fail(res, result, req);
        res.json(result.value);
      },
    }),
    defineRoute<{ outcome: (typeof SIMULATED_OUTCOMES)[number] }, undefined, { paymentId: string }>({
      ...common, method: 'post', path: '/v1/admin/payments/{paymentId}/simulate', operationId: 'simulatePayment',
      description: 'Sandbox only: moves a payment held at provider_accepted (account number ending 3333) to the outcome you choose, with its events and ledger transfer.',
      summary: 'Force a provider result on a sandbox payment',
      params: z.object({ paymentId: z.string().max(64).meta({ description: 'Payment id (pay_...)', example: 'pay_01JD4ZQ8W0Y8M2V6N3C5B7K9TQ' }) }),
      body: z.strictObject({ outcome: z.enum(SIMULATED_OUTCOMES).meta({ description: 'The result the sandbox provider reports' }) }),
      responses: {
        '200': { description: 'The payment after the move', schema: PaymentResponse }, ...AUTH_ERRORS, ...NOT_FOUND,
        '409': { description: 'invalid_state: already final', schema: ErrorA },
      },
      handler: async (req, res) => {
        const result = await admin.simulatePayment(req.params.paymentId, req.body.outcome);
        if (!result.ok) return fail(res, result, req);
        res.json(result.value);
      },
    }),
    ...reconciliationRoutes(admin),
    ...refundRoutes(admin),
    ...depositFindingRoutes(admin),
    ...rateAdminRoutes(admin),
    ...pricingAdminRoutes(admin),
    ...screeningAdminRoutes(admin),
  ];
}
