import type { Response } from 'express';
import { z } from 'zod';
import type { Application } from '../../core/application';
import type { TransferErrorCode } from '../../core/transfers/create-transfer-request';
import { MERCHANT_CATEGORY_CODES, TERMINAL_TYPES, TRANSFER_CURRENCIES, TRANSFER_LIMITS } from '../../core/transfers/transfer-request';
import { AmountInput, AUTH_ERRORS } from './common.schema';
import { sendShapeA, sendShapeC, type ShapeCCode } from './http-errors';
import { ErrorC } from './resolution.schema';
import { defineRoute, type RouteSpec } from './route';

/** Body of POST /tx/createTransferRequest (interface 4.2, part 8); names of the three unnamed fields per the issue. */
export const TransferRequestBody = z
  .strictObject({
    recipient: z.string().min(1).max(TRANSFER_LIMITS.recipient).meta({ description: 'Recipient wallet address' }),
    amount: AmountInput.meta({ description: 'Total amount, at least 0.01 and a multiple of 0.01', example: 150.5 }),
    acquirerMerchantName: z.string().min(1).max(32).meta({ description: 'Acquirer key from the catalog (ACQ_1, ACQ_2, ACQ_3)' }),
    reference: z.string().min(1).max(TRANSFER_LIMITS.reference).meta({ description: 'Unique transaction reference' }),
    merchantID: z.string().min(1).max(TRANSFER_LIMITS.merchantID),
    description: z.string().max(TRANSFER_LIMITS.description).optional(),
    successUrl: z.string().max(TRANSFER_LIMITS.url).optional(),
    failedUrl: z.string().max(TRANSFER_LIMITS.url).optional(),
    webhookUrl: z.string().max(TRANSFER_LIMITS.url).optional(),
    customReference: z.string().max(TRANSFER_LIMITS.customReference).optional(),
    merchantCategoryCode: z.enum(MERCHANT_CATEGORY_CODES).optional().meta({ description: '01 tangible goods, 02 virtual goods' }),
    paymentProcessor: z.string().max(32).optional().meta({ description: 'The single payment-processor value (PROCESSOR_1); default it' }),
    terminalType: z.enum(TERMINAL_TYPES).optional().meta({ description: 'Default APP' }),
    currency: z.enum(TRANSFER_CURRENCIES).optional().meta({ description: 'Default USDC' }),
  })
  .meta({ id: 'TransferRequestInput' });

const TransferRequestState = z.object({
  reference: z.string(), status: z.enum(['pending', 'expired']), link: z.string(), amount: z.string(),
  currency: z.enum(TRANSFER_CURRENCIES), acquirerMerchantName: z.string(), recipient: z.string(),
  createdAt: z.iso.datetime(), expiresAt: z.iso.datetime(),
}).meta({ id: 'TransferRequest' });

/** Path of GET /tx/transferRequests/{reference}. */
export const TransferRequestParams = z.object({ reference: z.string().min(1).max(TRANSFER_LIMITS.reference) });

/** Non-validation failures in shape C (DESIGN.md 7); exhaustive by type; GraphQL reuses it. */
export const TRANSFER_ERRORS: Record<Exclude<TransferErrorCode, 'validation_error'>, ShapeCCode> = {
  duplicate_reference: 'duplicate_reference',
  not_found: 'not_found',
};

function fail(res: Response, error: { code: TransferErrorCode; message: string }): void {
  if (error.code === 'validation_error') return sendShapeA(res, 'validation_error', error.message);
  sendShapeC(res, TRANSFER_ERRORS[error.code], error.message);
}

/** Routes of transfer requests (interface 4.2, 2.3). */
export function transferRequestRoutes(app: Application): RouteSpec<any, any, any>[] {
  return [
    defineRoute<z.infer<typeof TransferRequestBody>>({
      method: 'post', path: '/tx/createTransferRequest', operationId: 'createTransferRequest', tags: ['Payments'], auth: 'issuer',
      summary: 'Create a fiat-denominated transfer request; returns the acquirer deeplink that carries it out',
      body: TransferRequestBody,
      responses: {
        '200': { description: 'The deeplink (interface 2.3)', schema: z.object({ link: z.string() }).meta({ id: 'TransferRequestResult' }) },
        ...AUTH_ERRORS,
        '409': { description: 'duplicate_reference (shape C)', schema: ErrorC },
      },
      handler: async (req, res) => {
        const result = await app.createTransferRequest(req.tenantId, req.body);
        if (!result.ok) return fail(res, result);
        res.json(result.value);
      },
    }),
    defineRoute<undefined, undefined, { reference: string }>({
      method: 'get', path: '/tx/transferRequests/{reference}', operationId: 'getTransferRequest', tags: ['Payments'], auth: 'issuer',
      summary: 'The state of a transfer request, by its reference',
      params: TransferRequestParams,
      responses: { '200': { description: 'The request', schema: TransferRequestState }, ...AUTH_ERRORS, '404': { description: 'not_found (shape C)', schema: ErrorC } },
      handler: async (req, res) => {
        const result = await app.getTransferRequest(req.tenantId, req.params.reference);
        if (!result.ok) return fail(res, result);
        res.json(result.value);
      },
    }),
  ];
}
