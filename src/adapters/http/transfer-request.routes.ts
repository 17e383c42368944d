import type { Err } from '../../core/shared/result';
import type { Response } from 'express';
import { z } from 'zod';
import type { Application } from '../../core/application';
import type { TransferErrorCode, TransferLinkErrorCode } from '../../core/transfers/create-transfer-request';
import { TERMINAL_TYPES, TRANSFER_CURRENCIES } from '../../core/transfers/transfer-request';
import { TRANSFER_ERRORS, TransferRequestBody, TransferRequestParams } from '../contract/transfer-request.contract';
import type { ShapeCCode } from '../contract/error-codes';
import { AUTH_ERRORS } from './common.schema';
import { fieldsOf, sendShapeA, sendShapeC, type RequestParts } from './http-errors';
import { ErrorC } from './resolution.schema';
import { defineRoute, type RouteSpec } from './route';

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

function fail(res: Response, error: Err<TransferErrorCode>, req: RequestParts): void {
  if (error.code === 'validation_error') return sendShapeA(res, 'validation_error', error.message, fieldsOf(error, req));
  sendShapeC(res, TRANSFER_ERRORS[error.code], error.message);
}

/** Routes of transfer requests (OpenAPI createTransferRequest). */
export function transferRequestRoutes(app: Application): RouteSpec<any, any, any>[] {
  return [
    defineRoute<z.infer<typeof TransferRequestBody>>({
      method: 'post', path: '/tx/createTransferRequest', operationId: 'createTransferRequest',
      description: 'Creates a request for a customer to pay you at an acquirer, with a deeplink the acquirer resolves (resolveTransferLink) until it expires. reference must be unique for your tenant.', tags: ['Payments'], auth: 'issuer',
      summary: 'Create a fiat-denominated transfer request; returns the acquirer deeplink that carries it out',
      body: TransferRequestBody,
      responses: {
        '200': { description: 'The deeplink (OpenAPI createTransferRequest)', schema: z.object({ link: z.string() }).meta({ id: 'TransferRequestResult' }) },
        ...AUTH_ERRORS,
        '409': { description: 'duplicate_reference (shape C)', schema: ErrorC },
      },
      handler: async (req, res) => {
        const result = await app.createTransferRequest(req.tenantId, req.body);
        if (!result.ok) return fail(res, result, req);
        res.json(result.value);
      },
    }),
    defineRoute<undefined, undefined, { reference: string }>({
      method: 'get', path: '/tx/transferRequests/{reference}', operationId: 'getTransferRequest',
      description: 'One of your transfer requests by your reference, with its current status and deeplink.', tags: ['Payments'], auth: 'issuer',
      summary: 'The state of a transfer request, by its reference',
      params: TransferRequestParams,
      responses: { '200': { description: 'The request', schema: TransferRequestState }, ...AUTH_ERRORS, '404': { description: 'not_found (shape C)', schema: ErrorC } },
      handler: async (req, res) => {
        const result = await app.getTransferRequest(req.tenantId, req.params.reference);
        if (!result.ok) return fail(res, result, req);
        res.json(result.value);
      },
    }),
    defineRoute<undefined, undefined, { token: string }>({
      method: 'get', path: '/tx/transferLinks/{token}', operationId: 'resolveTransferLink',
      description: 'For acquirers: the transfer request behind a deeplink token, without the tenant. The unguessable token is the authorisation; it stops working when the request expires (410).', tags: ['Payments'], auth: 'none',
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
