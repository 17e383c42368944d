import { z } from 'zod';
import type { Application } from '../../core/application';
import { CORRIDOR_UNAVAILABLE_CODES } from '../../core/catalog/list-corridors';
import { MONEY_OUT_COUNTRIES, PAYMENT_METHODS } from '../../core/catalog/catalog';
import { STABLECOINS } from '../../core/shared/money';
import { CORRIDOR_ERRORS, CorridorQuery } from '../contract/corridor.contract';
import { AUTH_ERRORS, DecimalString } from './common.schema';
import { fieldsOf, sendShapeA } from './http-errors';
import { defineRoute, type RouteSpec } from './route';

/** One corridor as GET /v1/corridors lists it (OpenAPI listCorridors; docs/api.md § Corridors). */
export const CorridorEntry = z.object({
  country: z.enum(MONEY_OUT_COUNTRIES).meta({ description: 'Recipient country (ISO 3166-1 alpha-2)', example: 'KE' }),
  countryName: z.string().meta({ description: 'Country name in English', example: 'Kenya' }),
  currency: z.string().meta({ description: 'ISO 4217 currency the recipient is paid in: send as destinationCurrency', example: 'KES' }),
  paymentMethod: z.enum(PAYMENT_METHODS).meta({ description: 'Payout method', example: 'MOMO' }),
  paymentCode: z.string().meta({ description: 'Operator code (MOMO, PAYBILL, TILL) or bank code (BANK): send as paymentCode', example: 'MPESA' }),
  bankName: z.string().nullable().meta({ description: 'Name of the bank for BANK; null otherwise', example: null }),
  minAmount: DecimalString.meta({ description: 'Smallest fiatAmount accepted, in currency, inclusive', example: '10.00' }),
  maxAmount: DecimalString.meta({ description: 'Largest fiatAmount accepted, in currency, inclusive', example: '250000.00' }),
  sourceCurrencies: z.array(z.enum(STABLECOINS)).meta({ description: 'Stablecoins a money-out to it may be funded with', example: ['USDC', 'USDT'] }),
  payable: z.boolean().meta({ description: 'Whether a money-out to it is taken now for your key\'s environment (sandbox keys: every corridor)' }),
  unavailableCode: z.enum(CORRIDOR_UNAVAILABLE_CODES).nullable().meta({
    description: 'Null when payable; else the code a money-out to it would get: corridor_not_available (not live in this deployment; permanent) or provider_unavailable (its providers are failing; retry later)',
    example: null,
  }),
}).meta({ id: 'Corridor' });

/** GET /v1/corridors (OpenAPI listCorridors), in the Payments tag. */
export function corridorRoutes(app: Application): RouteSpec<any, any, any>[] {
  return [
    defineRoute<undefined, z.infer<typeof CorridorQuery>>({
      method: 'get',
      path: '/v1/corridors',
      operationId: 'listCorridors',
      description: 'Every country, method and operator or bank code a money-out pays, with its amount limits, currencies and whether your key\'s environment can pay it now. Small and unpaged, in catalog order.',
      summary: 'List the corridors you can pay',
      tags: ['Payments'],
      auth: 'issuer',
      query: CorridorQuery,
      responses: { '200': { description: 'The corridors, filtered when asked', schema: CorridorEntry.array() }, ...AUTH_ERRORS },
      handler: async (req, res) => {
        const result = await app.listCorridors(req.tenantId, req.query);
        if (!result.ok) return sendShapeA(res, CORRIDOR_ERRORS[result.code], result.message, fieldsOf(result, req));
        res.json(result.value);
      },
    }),
  ];
}
