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

const TRANSFER_LINK = 'https://pay.acq1.example.org/t/trt_9Qm2xV7bK4pL0sN8dF3hJ6wZ1cR5tY2u';
const TransferRequestState = z.object({
  reference: z.string().meta({ description: 'Your reference, unique per tenant', example: 'trq-10045' }),
  status: z.enum(['pending', 'expired']).meta({ description: 'pending until expiresAt, then expired' }),
  link: z.string().meta({ description: "The deeplink to hand the customer: the acquirer's template with an opaque token", example: TRANSFER_LINK }),
  amount: z.string().meta({ description: 'Amount as a decimal string with 2 places', example: '150.50' }),
  currency: z.enum(TRANSFER_CURRENCIES).meta({ description: 'Currency of amount' }),
  acquirerMerchantName: z.string().meta({ description: 'The acquirer key', example: 'ACQ_1' }),
  recipient: z.string().meta({ description: 'Recipient wallet address', example: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU' }),
  createdAt: z.iso.datetime().meta({ description: 'When it was created (ISO 8601 UTC)', example: '2026-11-23T09:41:07.512Z' }),
  expiresAt: z.iso.datetime().meta({ description: 'When the deeplink stops working', example: '2026-11-23T10:11:07.512Z' }),
}).meta({ id: 'TransferRequest', description: 'A request for a customer to pay at an acquirer' });

/** What the acquirer reads by a deeplink token (resolveTransferLink): the transfer, not the tenant. */
const TransferLink = z.object({
  id: z.string().meta({ description: 'Transfer request id (trq_ + ULID)', example: 'trq_01JD51A7N2C8F4H6K9M3P5R7TV' }),
  acquirerMerchantName: z.string().meta({ description: 'The acquirer key', example: 'ACQ_1' }),
  merchantID: z.string().meta({ description: "The merchant's id at the acquirer", example: 'MRC-20931' }),
  recipient: z.string().meta({ description: 'Recipient wallet address', example: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU' }),
  amount: z.string().meta({ description: 'Amount as a decimal string with 2 places', example: '150.50' }),
  currency: z.enum(TRANSFER_CURRENCIES).meta({ description: 'Currency of amount' }),
  description: z.string().nullable().meta({ description: 'What the customer pays for; null when not given', example: 'Order 10045' }),
  customReference: z.string().nullable().meta({ description: "The tenant's free reference; null when not given", example: 'cart-88412' }),
  merchantCategoryCode: z.string().nullable().meta({ description: '01 tangible goods, 02 virtual goods; null when not given', example: '01' }),
  paymentProcessor: z.string().meta({ description: 'The payment processor', example: 'PROCESSOR_1' }),
  terminalType: z.enum(TERMINAL_TYPES).meta({ description: 'APP or WEB' }),
  successUrl: z.string().nullable().meta({ description: 'Where to send the customer after paying', example: 'https://shop.example.org/paid' }),
  failedUrl: z.string().nullable().meta({ description: 'Where to send the customer when paying failed', example: 'https://shop.example.org/failed' }),
  webhookUrl: z.string().nullable().meta({ description: 'Where to report the outcome', example: 'https://shop.example.org/hooks/acquirer' }),
  expiresAt: z.iso.datetime().meta({ description: 'When the token stops working (410 after)', example: '2026-11-23T10:11:07.512Z' }),
}).meta({ id: 'TransferLink', description: 'The transfer request behind a deeplink token, for the acquirer' });

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
        '200': { description: 'The deeplink (OpenAPI createTransferRequest)', schema: z.object({ link: z.string().meta({ description: 'The deeplink to hand the customer', example: TRANSFER_LINK }) }).meta({ id: 'TransferRequestResult', example: { link: TRANSFER_LINK } }) },
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
