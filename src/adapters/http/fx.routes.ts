import type { Response } from 'express';
import { z } from 'zod';
import type { Application } from '../../core/application';
import { BLOCKCHAINS, FX_SOURCE_CURRENCIES, MONEY_OUT_COUNTRIES, PAYMENT_METHODS } from '../../core/catalog/catalog';
import type { FxQuoteErrorCode } from '../../core/quotes/get-fx-quote';
import { ISSUER_FEE_OPTIONS } from '../../core/quotes/pricing';
import { STABLECOINS } from '../../core/shared/money';
import { AmountInput, AUTH_ERRORS, DecimalString, ErrorD } from './common.schema';
import { sendShapeA, sendShapeD } from './http-errors';
import { defineRoute, type RouteSpec } from './route';

/** Query of GET /fx/convert (OpenAPI convertFx; names and the optional refinements from docs/decisions.md § FX quotes and the quote lock). */
export const FxQuery = z.strictObject({
  amount: AmountInput.meta({ description: 'Fiat amount to convert, at least 0.01', example: '1500' }),
  sourceCurrency: z.enum(FX_SOURCE_CURRENCIES).meta({ description: 'Local fiat currency' }),
  destinationCurrency: z.enum(STABLECOINS),
  paymentMethod: z.enum(PAYMENT_METHODS).optional().meta({ description: 'Default MOMO' }),
  country: z.enum([...MONEY_OUT_COUNTRIES, 'ET']).optional(),
  optionalIssuerFee: z.enum(ISSUER_FEE_OPTIONS).optional().meta({ description: 'Default NO' }),
  blockchain: z.enum(BLOCKCHAINS).optional().meta({ description: 'Default from the catalog (SOLANA)' }),
});

/** FX quote (OpenAPI convertFx) plus the stored quote's id (docs/decisions.md § FX quotes and the quote lock). */
export const FxQuoteResponse = z
  .object({
    convertedAmount: z.number().meta({ description: 'Stablecoin total including payoutFee', example: 12.115764 }),
    exchangeRate: DecimalString.meta({ description: 'Units of source fiat per 1 stablecoin' }),
    expiryTimestamp: z.number().int().meta({ description: 'Unix seconds at which the quote expires' }),
    payoutFee: DecimalString.meta({ description: 'Method + network + optional issuer fee, in the stablecoin' }),
    quoteId: z.string().meta({ description: 'Pass as quoteId to a money-out to lock this rate', example: 'quo_01JD4ZQ8W0Y8M2V6N3C5B7K9TQ' }),
  })
  .meta({ id: 'FxQuote' });

/** Every FX failure mapped to its error shape and status (docs/decisions.md § Errors: shapes per route family); exhaustive by type. */
const FX_ERRORS: Record<FxQuoteErrorCode, (res: Response, message: string) => void> = {
  validation_error: (res, message) => sendShapeA(res, 'validation_error', message),
  unsupported_pair: (res, message) => sendShapeD(res, 422, message),
  rates_unavailable: (res, message) => sendShapeD(res, 503, message),
};

/** Routes of the FX tag (OpenAPI convertFx). */
export function fxRoutes(app: Application): RouteSpec<any, any, any>[] {
  return [
    defineRoute<undefined, z.infer<typeof FxQuery>>({
      method: 'get',
      path: '/fx/convert',
      operationId: 'convertFx',
      summary: 'Quote a fiat amount in a stablecoin, fees included; the quote is stored and can lock a money-out rate',
      tags: ['FX'],
      auth: 'issuer',
      query: FxQuery,
      responses: {
        '200': { description: 'The quote', schema: FxQuoteResponse },
        ...AUTH_ERRORS,
        '422': { description: 'Unsupported currency pair (shape D)', schema: ErrorD },
        '503': { description: 'Rates unavailable (shape D)', schema: ErrorD },
      },
      handler: async (req, res) => {
        const result = await app.getFxQuote(req.tenantId, req.query);
        if (!result.ok) return FX_ERRORS[result.code](res, result.message);
        const quote = result.value;
        res.json({
          convertedAmount: Number(quote.convertedAmount),
          exchangeRate: quote.exchangeRate,
          expiryTimestamp: Math.floor(quote.expiresAt.getTime() / 1000),
          payoutFee: quote.payoutFee,
          quoteId: quote.id,
        });
      },
    }),
  ];
}
