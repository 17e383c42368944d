import type { Response } from 'express';
import { z } from 'zod';
import type { Application } from '../../core/application';
import type { FxQuoteErrorCode } from '../../core/quotes/get-fx-quote';
import { FX_ERRORS, FxQuery } from '../contract/fx.contract';
import { AUTH_ERRORS, DecimalString, ErrorD } from './common.schema';
import type { Err } from '../../core/shared/result';
import { RetryAfterHeader } from './openapi-headers';
import { fieldsOf, sendShapeA, sendShapeD, setRetryAfter, type RequestParts } from './http-errors';
import { defineRoute, type RouteSpec } from './route';

/** FX quote (OpenAPI convertFx) plus the stored quote's id (docs/decisions.md § FX quotes and the quote lock). */
export const FxQuoteResponse = z
  .object({
    convertedAmount: z.number().meta({ description: 'Stablecoin total including payoutFee', example: 12.115416 }),
    exchangeRate: DecimalString.meta({ description: 'Units of source fiat per 1 stablecoin', example: '129.25' }),
    expiryTimestamp: z.number().int().meta({ description: 'Unix seconds at which the quote expires', example: 1795426927 }),
    payoutFee: DecimalString.meta({ description: 'Method + network + optional issuer fee, in the stablecoin', example: '0.510000' }),
    quoteId: z.string().meta({ description: 'Pass as quoteId to a money-out to lock this rate', example: 'quo_01JD4ZQ8W0Y8M2V6N3C5B7K9TQ' }),
  })
  .meta({
    id: 'FxQuote',
    description: 'A stored quote: the stablecoin total for a fiat amount, valid 60 seconds',
    example: { convertedAmount: 12.115416, exchangeRate: '129.25', expiryTimestamp: 1795426927, payoutFee: '0.510000', quoteId: 'quo_01JD4ZQ8W0Y8M2V6N3C5B7K9TQ' },
  });

/**
 * Every FX failure in its REST error shape (docs/decisions.md § Errors: shapes per route family):
 * validation in shape A, the rest in the numeric shape D with the status of the code GraphQL
 * answers for it (422 unsupported_corridor, 503 rate_unavailable with Retry-After when known).
 */
function sendFxError(res: Response, failure: Err<FxQuoteErrorCode>, req: RequestParts): void {
  const code = FX_ERRORS[failure.code];
  if (code === 'validation_error') return sendShapeA(res, code, failure.message, fieldsOf(failure, req));
  setRetryAfter(res, failure);
  sendShapeD(res, code, failure.message);
}

/** Routes of the FX tag (OpenAPI convertFx). */
export function fxRoutes(app: Application): RouteSpec<any, any, any>[] {
  return [
    defineRoute<undefined, z.infer<typeof FxQuery>>({
      method: 'get',
      path: '/fx/convert',
      operationId: 'convertFx',
      description: 'Quotes fiat amount in sourceCurrency as a stablecoin amount, fees included (convertedAmount = amount / exchangeRate + payoutFee, rounded up at 6 places). Every quote is stored for 60 seconds: pass its quoteId to one money-out of the same amount, pair and method to pay at this rate. Errors other than validation use error shape D.',
      summary: 'Quote a fiat amount in a stablecoin, fees included; the quote is stored and can lock a money-out rate',
      tags: ['FX'],
      auth: 'issuer',
      query: FxQuery,
      responses: {
        '200': { description: 'The quote', schema: FxQuoteResponse },
        ...AUTH_ERRORS,
        '422': { description: 'Unsupported currency pair (shape D)', schema: ErrorD },
        '503': {
          description: 'rate_unavailable (shape D): no trustworthy live exchange rate for the pair now (too few fresh sources, or a sudden move awaiting confirmation); retry after Retry-After seconds; nothing is stored',
          schema: ErrorD, headers: { 'Retry-After': RetryAfterHeader },
        },
      },
      handler: async (req, res) => {
        const result = await app.getFxQuote(req.tenantId, req.query);
        if (!result.ok) return sendFxError(res, result, req);
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
