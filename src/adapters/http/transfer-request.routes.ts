import type { Response } from 'express';
import { z } from 'zod';
import type { Application } from '../../core/application';
import type { TransferErrorCode, TransferLinkErrorCode } from '../../core/transfers/create-transfer-request';
import { MERCHANT_CATEGORY_CODES, TERMINAL_TYPES, TRANSFER_CURRENCIES, TRANSFER_LIMITS } from '../../core/transfers/transfer-request';
import { AmountInput, AUTH_ERRORS } from './common.schema';
import { sendShapeA, sendShapeC, type ShapeCCode } from './http-errors';
import { ErrorC } from './resolution.schema';
import { defineRoute, type RouteSpec } from './route';

/** Body of POST /tx/createTransferRequest (OpenAPI createTransferRequest); `paymentProcessor`, `terminalType` and `currency` are our names for three fields the interface leaves unnamed. */
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

/** What the acquirer reads by a deeplink token (resolveTransferLink): the transfer, not the tenant. */
const TransferLink = z.object({
  id: z.string(), acquirerMerchantName: z.string(), merchantID: z.string(), recipient: z.string(), amount: z.string(),
  currency: z.enum(TRANSFER_CURRENCIES), description: z.string().nullable(), customReference: z.string().nullable(),
  merchantCategoryCode: z.string().nullable(), paymentProcessor: z.string(), terminalType: z.enum(TERMINAL_TYPES),
  successUrl: z.string().nullable(), failedUrl: z.string().nullable(), webhookUrl: z.string().nullable(), expiresAt: z.iso.datetime(),
}).meta({ id: 'TransferLink' });

/** Path of GET /tx/transferLinks/{token}: any text up to 64 characters (a malformed token is simply not found). */
const TransferLinkParams = z.object({ token: z.string().min(1).max(64).meta({ description: 'The token of the deeplink (trt_...)' }) });

/** Failures of resolving a deeplink token, in shape C. */
const TRANSFER_LINK_ERRORS: Record<TransferLinkErrorCode, ShapeCCode> = { not_found: 'not_found', link_expired: 'link_expired' };

/** Path of GET /tx/transferRequests/{reference}. */
export const TransferRequestParams = z.object({ reference: z.string().min(1).max(TRANSFER_LIMITS.reference) });

/** Non-validation failures in shape C (docs/decisions.md § Errors: shapes per route family); exhaustive by type; GraphQL reuses it. */
export const TRANSFER_ERRORS: Record<Exclude<TransferErrorCode, 'validation_error'>, ShapeCCode> = {
  duplicate_reference: 'duplicate_reference',
  not_found: 'not_found',
};

function fail(res: Response, error: { code: TransferErrorCode; message: string }): void {
  if (error.code === 'validation_error') return sendShapeA(res, 'validation_error', error.message);
  sendShapeC(res, TRANSFER_ERRORS[error.code], error.message);
}

/** Routes of transfer requests (OpenAPI createTransferRequest). */
export function transferRequestRoutes(app: Application): RouteSpec<any, any, any>[] {
  return [
    defineRoute<z.infer<typeof TransferRequestBody>>({
      method: 'post', path: '/tx/createTransferRequest', operationId: 'createTransferRequest', tags: ['Payments'], auth: 'issuer',
      summary: 'Create a fiat-denominated transfer request; returns the acquirer deeplink that carries it out',
      body: TransferRequestBody,
      responses: {
        '200': { description: 'The deeplink (OpenAPI createTransferRequest)', schema: z.object({ link: z.string() }).meta({ id: 'TransferRequestResult' }) },
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
    defineRoute<undefined, undefined, { token: string }>({
      method: 'get', path: '/tx/transferLinks/{token}', operationId: 'resolveTransferLink', tags: ['Payments'], auth: 'none',
      summary: 'For the acquirer that opened a deeplink: the transfer request behind its token, until it expires (the token is the credential)',
      params: TransferLinkParams,
      responses: {
        '200': { description: 'The transfer to carry out', schema: TransferLink },
        '404': { description: 'not_found: no request has this token (shape C)', schema: ErrorC },
        '410': { description: 'link_expired: the request has expired (shape C)', schema: ErrorC },
      },
      handler: async (req, res) => {
        const result = await app.resolveTransferLink(req.params.token);
        if (!result.ok) return sendShapeC(res, TRANSFER_LINK_ERRORS[result.code], result.message);
        // The answer is as sensitive as the token: never kept by a shared cache.
        res.set('Cache-Control', 'no-store').json(result.value);
      },
    }),
  ];
}
