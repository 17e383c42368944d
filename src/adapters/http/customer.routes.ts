import type { Response } from 'express';
import { z } from 'zod';
import type { Application } from '../../core/application';
import { ID_TYPES, KYC_STATUSES } from '../../core/customers/customer';
import type { CustomerErrorCode } from '../../core/customers/manage-customers';
import { AUTH_ERRORS, ErrorA } from './common.schema';
import { sendShapeA, type ShapeACode } from './http-errors';
import { nextPageLink, PageQuery } from './pagination';
import { defineRoute, type RouteSpec } from './route';

/** Body of POST /v1/customers; GraphQL's createCustomer validates with it too. */
export const CreateCustomerBody = z.strictObject({
  externalId: z.string().min(1).max(100).meta({ description: "The issuer's own id for this user; unique per tenant" }),
  firstName: z.string().min(1).max(100),
  lastName: z.string().min(1).max(100),
  country: z.string().length(2).meta({ description: 'ISO 3166-1 alpha-2, upper case (XK for Kosovo accepted)', example: 'KE' }),
  dateOfBirth: z.string().meta({ description: 'YYYY-MM-DD, a real date from 1900-01-01; the customer must be 18 or older', example: '1990-04-12' }),
  idType: z.enum(ID_TYPES),
  idNumber: z.string().min(4).max(32).meta({ description: '4 to 32 letters, digits or dashes; stored, but returned only as idNumberLast4' }),
}).meta({ id: 'CreateCustomerRequest' });

/** Path of GET /v1/customers/{customerId}. */
export const CustomerParams = z.object({ customerId: z.string().max(64) });

const CustomerResponse = z.object({
  id: z.string(), externalId: z.string(), firstName: z.string(), lastName: z.string(), country: z.string(), dateOfBirth: z.string(),
  idType: z.enum(ID_TYPES), idNumberLast4: z.string(), kycStatus: z.enum(KYC_STATUSES), kycReason: z.string().nullable(),
  createdAt: z.iso.datetime(), updatedAt: z.iso.datetime(),
}).meta({ id: 'Customer' });

/** Every customer failure mapped to shape A; exhaustive by type. */
const CUSTOMER_ERRORS: Record<CustomerErrorCode, ShapeACode> = {
  validation_error: 'validation_error', duplicate_customer: 'duplicate_customer', not_found: 'not_found', provider_unavailable: 'provider_unavailable',
};
const fail = (res: Response, e: { code: CustomerErrorCode; message: string }) => sendShapeA(res, CUSTOMER_ERRORS[e.code], e.message);

/** Routes of the Customers tag (docs/decisions.md § Customers and KYC). */
export function customerRoutes(app: Application): RouteSpec<any, any, any>[] {
  const common = { tags: ['Customers'], auth: 'issuer' } as const;
  return [
    defineRoute<z.infer<typeof CreateCustomerBody>>({
      ...common, method: 'post', path: '/v1/customers', operationId: 'createCustomer',
      summary: 'Register a wallet user; KYC starts pending and its decision emits customer.kyc.updated',
      body: CreateCustomerBody,
      responses: {
        '201': { description: 'Created, kycStatus pending', schema: CustomerResponse }, ...AUTH_ERRORS, '409': { description: 'duplicate_customer', schema: ErrorA },
        '503': { description: 'provider_unavailable: no KYC provider serves this tenant (live tenants until real rails exist); nothing is written', schema: ErrorA },
      },
      handler: async (req, res) => {
        const result = await app.createCustomer(req.tenantId, req.body);
        if (!result.ok) return fail(res, result);
        res.status(201).json(result.value);
      },
    }),
    defineRoute<undefined, z.infer<typeof PageQuery>>({
      ...common, method: 'get', path: '/v1/customers', operationId: 'listCustomers', summary: 'Customers, newest first; next page in the Link header',
      query: PageQuery,
      responses: { '200': { description: 'One page', schema: z.array(CustomerResponse) }, ...AUTH_ERRORS },
      handler: async (req, res) => {
        const result = await app.listCustomers(req.tenantId, req.query.limit, req.query.cursor);
        if (!result.ok) return fail(res, result);
        if (result.value.nextCursor) res.set('Link', nextPageLink(req.raw, req.query, result.value.nextCursor));
        res.json(result.value.entries);
      },
    }),
    defineRoute<undefined, undefined, { customerId: string }>({
      ...common, method: 'get', path: '/v1/customers/{customerId}', operationId: 'getCustomer', summary: 'One customer',
      params: CustomerParams,
      responses: { '200': { description: 'The customer', schema: CustomerResponse }, ...AUTH_ERRORS, '404': { description: 'not_found', schema: ErrorA } },
      handler: async (req, res) => {
        const result = await app.getCustomer(req.tenantId, req.params.customerId);
        if (!result.ok) return fail(res, result);
        res.json(result.value);
      },
    }),
  ];
}
