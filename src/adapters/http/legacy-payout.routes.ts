import type { Response } from 'express';
import { z } from 'zod';
import type { Application } from '../../core/application';
import { LEGACY_COUNTRIES, LEGACY_CURRENCIES, LEGACY_DESTINATIONS, type LegacyPayoutErrorCode } from '../../core/payments/legacy-payout';
import { AmountInput, AUTH_ERRORS, ErrorB } from './common.schema';
import { sendShapeA, sendShapeB, type ShapeBCode } from './http-errors';
import { defineRoute, type RouteSpec } from './route';

/** Body of POST /momo/payout (OpenAPI legacyPayout); the interface leaves open which fields are required: these are. */
export const LegacyPayoutBody = z
  .strictObject({
    amount: AmountInput.meta({ description: 'Amount in local currency' }),
    destination: z.enum(Object.keys(LEGACY_DESTINATIONS) as [keyof typeof LEGACY_DESTINATIONS]),
    accountName: z.string().min(1).max(140),
    accountNumber: z.string().min(1).max(34).meta({
      description: 'Bank: 10-16 digits. MoMo: phone code and number, no plus sign. Paybill: 1-20 characters. Till: 6 digits.',
    }),
    reference: z.string().min(1).max(128).meta({ description: "Wallet issuer's unique reference; repeats with the same body return the same payout" }),
    currency: z.enum(LEGACY_CURRENCIES),
    country: z.enum(LEGACY_COUNTRIES),
    businessNumber: z.string().meta({ description: 'Only for Paybill: 6 digits' }).optional(),
    code: z.string().min(1).max(20).meta({ description: 'Operator or bank code valid for the country' }),
  })
  .meta({ id: 'LegacyPayoutRequest' });

/** Shape B code per refusal (docs/decisions.md § Errors: shapes per route family); validation failures stay shape A. Exhaustive by type; GraphQL reuses it. */
export const LEGACY_ERRORS: Record<Exclude<LegacyPayoutErrorCode, 'validation_error'>, ShapeBCode> = {
  unsupported_corridor: 'unsupported_corridor',
  insufficient_balance: 'insufficient_balance',
  quote_expired: 'quote_expired',
  // The legacy body takes no quoteId, so neither quote code can happen here; the map stays exhaustive.
  quote_already_used: 'quote_already_used',
  tenant_not_configured: 'tenant_not_configured',
  duplicate_reference: 'duplicate_reference',
  idempotency_key_reused: 'duplicate_reference',
  idempotency_key_in_use: 'payout_in_progress',
  provider_unavailable: 'provider_unavailable',
};

/** Route of the legacy payout (OpenAPI legacyPayout). */
export function legacyPayoutRoutes(app: Application): RouteSpec<any, any, any>[] {
  return [
    defineRoute<z.infer<typeof LegacyPayoutBody>>({
      method: 'post', path: '/momo/payout', operationId: 'legacyPayout', tags: ['Payments'], auth: 'issuer',
      summary: 'Legacy payout: creates a payment (see GET /v1/payments/{id}) funded with the tenant\'s payout settings',
      body: LegacyPayoutBody,
      responses: {
        '200': { description: 'Accepted; transactionId is the payment id', schema: z.object({ success: z.boolean(), transactionId: z.string() }).meta({ id: 'LegacyPayoutResult' }) },
        ...AUTH_ERRORS,
        '409': { description: 'The reference was used with another body (shape B)', schema: ErrorB },
        '422': { description: 'Payout refused (shape B)', schema: ErrorB },
        '503': { description: 'provider_unavailable (shape B): no rate, or no payout provider serves this tenant (live tenants until real rails exist); nothing is written', schema: ErrorB },
      },
      handler: async (req, res: Response) => {
        const result = await app.createLegacyPayout(req.tenantId, req.body);
        if (!result.ok) {
          if (result.code === 'validation_error') return sendShapeA(res, 'validation_error', result.message);
          return sendShapeB(res, LEGACY_ERRORS[result.code], result.message);
        }
        if (result.value.replayed) res.set('Idempotent-Replayed', 'true');
        res.json({ success: true, transactionId: result.value.transactionId });
      },
    }),
  ];
}
