import { z } from 'zod';
import type { AdminApplication } from '../../core/admin/admin-application';
import { BLOCKCHAINS, PAYMENT_METHODS } from '../../core/catalog/catalog';
import { Decimal, formatAmount } from '../../core/shared/money';
import { AUTH_ERRORS, DecimalString, ErrorA } from './common.schema';
import { fieldsOf, sendShapeA } from './http-errors';
import { defineRoute, type RouteSpec } from './route';

const PRICING_EXAMPLE = {
  origin: 'live', mid: '18.1', spreadPercent: '0.5', rate: '18.0095', fee: '0.510000', pinId: null,
  sources: [
    { source: 'coinbase', rate: '18.00', at: '2026-11-27T00:31:05.000Z' },
    { source: 'luno', rate: '18.30', at: '2026-11-27T00:31:04.870Z' },
    { source: 'valr', rate: '18.10', at: '2026-11-27T00:31:03.000Z' },
  ],
};

/** How a quote or payment was priced (docs/decisions.md § FX quotes: pricing records). */
export const PricingRecordView = z.object({
  origin: z.enum(['catalog', 'live', 'pin']).meta({ description: "catalog: the catalog's reference rate (sandbox tenants, or no live source); live: the median of the sources; pin: an operator's pinned mid" }),
  mid: DecimalString.meta({ description: 'The mid rate before the spread, units of fiat per 1 stablecoin', example: '18.1' }),
  spreadPercent: z.string().meta({ description: 'The spread of the corridor and method, in percent under the mid ("0.5" is 0.5 %, 50 basis points)', example: '0.5' }),
  rate: DecimalString.meta({ description: 'The rate priced: mid × (1 − spread / 100), cut at 6 places', example: '18.0095' }),
  fee: DecimalString.meta({ description: 'payoutFee: method + network + optional issuer fee, in the stablecoin', example: '0.510000' }),
  sources: z.array(z.object({
    source: z.string().meta({ description: 'Rate source (docs/providers.md § Rates), or catalog', example: 'luno' }),
    rate: DecimalString.meta({ description: 'Its rate as published, units of fiat per 1 stablecoin', example: '18.30' }),
    at: z.iso.datetime().nullable().meta({ description: "The source's own timestamp of the rate; null for the catalog", example: '2026-11-27T00:31:04.870Z' }),
  })).meta({ description: 'The rates the mid is the median of (live), the catalog (catalog), none (pin)' }),
  pinId: z.string().nullable().meta({ description: 'The pin (pin_ + ULID) the mid came from; null unless origin is pin', example: null }),
}).meta({ id: 'PricingRecord', description: 'How it was priced, stored with it', example: PRICING_EXAMPLE });

const QuoteView = z.object({
  quoteId: z.string().meta({ description: 'Quote id (quo_ + ULID)', example: 'quo_01JD4ZQ8W0Y8M2V6N3C5B7K9TQ' }),
  tenantId: z.string().meta({ description: 'The tenant the quote belongs to', example: 'ten_01JD4Y9R3T6V8X0Z2B4D6F8H0K' }),
  fiatCurrency: z.string().meta({ description: 'Fiat currency quoted', example: 'ZAR' }),
  stablecoin: z.string().meta({ description: 'Stablecoin quoted', example: 'USDC' }),
  fiatAmount: DecimalString.meta({ description: 'Fiat amount quoted', example: '1810' }),
  exchangeRate: DecimalString.meta({ description: 'Units of fiat per 1 stablecoin, as the quote answered', example: '18.0095' }),
  payoutFee: DecimalString.meta({ description: 'Fee in the stablecoin, 6 decimal places', example: '0.510000' }),
  convertedAmount: DecimalString.meta({ description: 'Stablecoin total, fee included, 6 decimal places', example: '101.012472' }),
  paymentMethod: z.enum(PAYMENT_METHODS).meta({ description: 'Payment method quoted' }),
  country: z.string().nullable().meta({ description: 'Country quoted; null when the quote named none', example: 'ZA' }),
  blockchain: z.enum(BLOCKCHAINS).meta({ description: 'Chain of the stablecoin leg' }),
  expiresAt: z.iso.datetime().meta({ description: 'When the quote expires', example: '2026-11-27T00:32:06.000Z' }),
  createdAt: z.iso.datetime().meta({ description: 'When the quote was made', example: '2026-11-27T00:31:06.000Z' }),
  usedAt: z.iso.datetime().nullable().meta({ description: 'When a money-out used it; null while unused', example: null }),
  paymentId: z.string().nullable().meta({ description: 'The payment that used it; null while unused', example: null }),
  pricing: PricingRecordView.nullable().meta({ description: 'How it was priced; null on quotes stored before pricing records were kept' }),
}).meta({ id: 'AdminQuote' });

/** GET /v1/admin/quotes/{quoteId} (docs/decisions.md § FX quotes: pricing records): any tenant's quote and how it was priced. */
export function pricingAdminRoutes(admin: AdminApplication): RouteSpec<any, any, any>[] {
  return [
    defineRoute<undefined, undefined, { quoteId: string }>({
      tags: ['Admin'], auth: 'admin', method: 'get', path: '/v1/admin/quotes/{quoteId}', operationId: 'adminGetQuote',
      summary: "Any tenant's quote with the mid rate, spread, fee and sources behind it",
      description: 'Platform admin key. The stored quote and its pricing record: the mid rate, the spread, each source\'s rate with the source\'s own '
        + 'timestamp, and the fee (for audit and disputes). A money-out that used it carries the same basis (GET /v1/admin/payments/{paymentId}).',
      params: z.object({ quoteId: z.string().max(64).meta({ description: 'Quote id (quo_...)', example: 'quo_01JD4ZQ8W0Y8M2V6N3C5B7K9TQ' }) }),
      responses: { '200': { description: 'The quote', schema: QuoteView }, ...AUTH_ERRORS, '404': { description: 'not_found', schema: ErrorA } },
      handler: async (req, res) => {
        const result = await admin.getQuote(req.params.quoteId);
        if (!result.ok) return sendShapeA(res, 'not_found', result.message, fieldsOf(result, req));
        const q = result.value;
        res.json({
          quoteId: q.id, tenantId: q.tenantId, fiatCurrency: q.fiatCurrency, stablecoin: q.stablecoin, fiatAmount: q.fiatAmount,
          exchangeRate: q.exchangeRate, payoutFee: formatAmount(new Decimal(q.payoutFee), q.stablecoin),
          convertedAmount: formatAmount(new Decimal(q.convertedAmount), q.stablecoin), paymentMethod: q.paymentMethod,
          country: q.country, blockchain: q.blockchain, expiresAt: q.expiresAt.toISOString(), createdAt: q.createdAt.toISOString(),
          usedAt: q.usedAt?.toISOString() ?? null, paymentId: q.paymentId, pricing: q.pricing ?? null,
        });
      },
    }),
  ];
}
