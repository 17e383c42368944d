import type { Err } from '../../core/shared/result';
import type { Response } from 'express';
import { z } from 'zod';
import type { Application } from '../../core/application';
import type { CustomerErrorCode } from '../../core/customers/manage-customers';
import { CreateCustomerBody, CUSTOMER_ERRORS, CustomerParams } from '../contract/customer.contract';
import { PageQuery } from '../contract/page.schema';
import { CustomerResponse } from './customer.schema';
import { AUTH_ERRORS, ErrorA } from './common.schema';
import { fieldsOf, sendShapeA, setRetryAfter, type RequestParts } from './http-errors';
import { RetryAfterHeader } from './openapi-headers';
import { nextPageLink } from './pagination';
import { defineRoute, type RouteSpec } from './route';

const fail = (res: Response, e: Err<CustomerErrorCode>, req: RequestParts) => {
  setRetryAfter(res, e);
  return sendShapeA(res, CUSTOMER_ERRORS[e.code], e.message, fieldsOf(e, req));
};

/** Routes of the Customers tag (docs/decisions.md § Customers and KYC). */
export function customerRoutes(app: Application): RouteSpec<any, any, any>[] {
  const common = { tags: ['Customers'], auth: 'issuer' } as const;
  return [
    defineRoute<z.infer<typeof CreateCustomerBody>>({
      ...common, method: 'post', path: '/v1/customers', operationId: 'createCustomer',
      description: 'Registers one of your wallet users for KYC. The customer starts pending; the decision (approved or rejected) arrives as customer.kyc.updated. Only the last four characters of the id number are ever returned.',
      summary: 'Register a wallet user; KYC starts pending and its decision emits customer.kyc.updated',
      body: CreateCustomerBody,
      responses: {
        '201': { description: 'Created, kycStatus pending', schema: CustomerResponse }, ...AUTH_ERRORS, '409': { description: 'duplicate_customer', schema: ErrorA },
        '503': {
          description: 'provider_unavailable: no KYC provider serves this tenant or country; screening_unavailable: a live tenant while no sanctions list is loaded (with Retry-After). Nothing is written either way',
          schema: ErrorA, headers: { 'Retry-After': RetryAfterHeader },
        },
      },
      handler: async (req, res) => {
        const result = await app.createCustomer(req.tenantId, req.body);
        if (!result.ok) return fail(res, result, req);
        res.status(201).json(result.value);
      },
    }),
    defineRoute<undefined, z.infer<typeof PageQuery>>({
      ...common, method: 'get', path: '/v1/customers', operationId: 'listCustomers',
      description: 'Your customers, newest first; page with limit and the Link header.', summary: 'Customers, newest first; next page in the Link header',
      query: PageQuery,
      responses: { '200': { description: 'One page', schema: z.array(CustomerResponse) }, ...AUTH_ERRORS },
      handler: async (req, res) => {
        const result = await app.listCustomers(req.tenantId, req.query.limit, req.query.cursor);
        if (!result.ok) return fail(res, result, req);
        if (result.value.nextCursor) res.set('Link', nextPageLink(req.raw, req.query, result.value.nextCursor));
        res.json(result.value.entries);
      },
    }),
    defineRoute<undefined, undefined, { customerId: string }>({
      ...common, method: 'get', path: '/v1/customers/{customerId}', operationId: 'getCustomer',
      description: 'One of your customers with its KYC status.', summary: 'One customer',
      params: CustomerParams,
      responses: { '200': { description: 'The customer', schema: CustomerResponse }, ...AUTH_ERRORS, '404': { description: 'not_found', schema: ErrorA } },
      handler: async (req, res) => {
        const result = await app.getCustomer(req.tenantId, req.params.customerId);
        if (!result.ok) return fail(res, result, req);
        res.json(result.value);
      },
    }),
  ];
}
