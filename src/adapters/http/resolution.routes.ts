import type { Response } from 'express';
import type { z } from 'zod';
import type { Application } from '../../core/application';
import type { MomoResolveErrorCode, ResolveErrorCode } from '../../core/resolution/resolution';
import { AUTH_ERRORS } from './common.schema';
import type { Err } from '../../core/shared/result';
import { fieldsOf, sendShapeA, sendShapeC, type RequestParts } from './http-errors';
import {
  accountResolveBody, BankListQuery, idResolveBody, MomoResolveBody, RESOLVE_ERRORS,
} from '../contract/resolution.contract';
import {
  BankAccountResolutionResponse, BankListEntry, ErrorC, IdentifierResolutionResponse, MomoResolutionResponse,
} from './resolution.schema';
import { defineRoute, type RouteSpec } from './route';

type Send = (res: Response, failure: Err<string>, req: RequestParts) => void;

/**
 * Every resolution failure mapped to its error shape and status (docs/decisions.md § Errors: shapes per route family): validation in shape
 * A, directory outcomes in shape C with a hint in `details`. Exhaustive by type.
 */
const resolveErrors = (subject: string): Record<ResolveErrorCode, Send> => ({
  validation_error: (res, failure, req) => sendShapeA(res, RESOLVE_ERRORS.validation_error, failure.message, fieldsOf(failure, req)),
  account_not_found: (res, { message }) => sendShapeC(res, RESOLVE_ERRORS.account_not_found, message, `Check the ${subject}`),
  upstream_unavailable: (res, { message }) => sendShapeC(res, RESOLVE_ERRORS.upstream_unavailable, message, 'The directory could not be reached; retry later'),
});
const BANK_ERRORS = resolveErrors('account number and bank code');
const ID_ERRORS = resolveErrors('username and issuer');
/** `/momo/resolve` answers an unresolvable number with `valid: false`, so it has no not-found error. */
const MOMO_ERRORS: Record<MomoResolveErrorCode, Send> = {
  validation_error: BANK_ERRORS.validation_error,
  upstream_unavailable: BANK_ERRORS.upstream_unavailable,
};

const SHAPE_C_ERRORS = {
  '404': { description: 'The account does not exist (shape C, error account_not_found)', schema: ErrorC },
  '502': { description: 'The directory could not be reached (shape C, error upstream_unavailable)', schema: ErrorC },
} as const;

/** Routes of bank listing and recipient resolution (OpenAPI resolveMomo, resolveBankAccount, resolveIdentifier and listBanks), in the Payments tag. */
export function resolutionRoutes(app: Application): RouteSpec<any, any, any>[] {
  const AccountResolveBody = accountResolveBody(app.catalog);
  const IdResolveBody = idResolveBody(app.catalog);
  return [
    defineRoute<undefined, z.infer<typeof BankListQuery>>({
      method: 'get',
      path: '/v1/account/banks',
      operationId: 'listBanks',
      description: 'Banks that accept payouts in a country, with the bankCode to send as paymentCode in a BANK money-out.',
      summary: 'List the banks of a recipient country (NG or ZA)',
      tags: ['Payments'],
      auth: 'issuer',
      query: BankListQuery,
      responses: { '200': { description: 'Banks of the country', schema: BankListEntry.array() }, ...AUTH_ERRORS },
      handler: async (req, res) => {
        const result = await app.listBanks(req.tenantId, req.query.country);
        if (!result.ok) return sendShapeA(res, result.code, result.message, fieldsOf(result, req));
        res.json(result.value.map(({ bankCode, bankName }) => ({ bankCode, bankName })));
      },
    }),
    defineRoute<z.infer<typeof MomoResolveBody>>({
      method: 'post',
      path: '/momo/resolve',
      operationId: 'resolveMomo',
      description: 'Looks up the holder of a mobile-money number or merchant account before you pay it. An unknown number answers 200 with valid: false rather than an error.',
      summary: 'Validate a paybill, till or mobile-money number and resolve its name or operators',
      tags: ['Payments'],
      auth: 'issuer',
      body: MomoResolveBody,
      responses: {
        '200': { description: 'The resolution; a number that does not resolve answers valid: false with a message', schema: MomoResolutionResponse },
        ...AUTH_ERRORS,
        '502': SHAPE_C_ERRORS['502'],
      },
      handler: async (req, res) => {
        const result = await app.resolveMomo(req.tenantId, req.body);
        if (!result.ok) return MOMO_ERRORS[result.code](res, result, req);
        res.json(result.value);
      },
    }),
    defineRoute<z.infer<typeof AccountResolveBody>>({
      method: 'post',
      path: '/account/resolve',
      operationId: 'resolveBankAccount',
      description: 'Looks up the holder name of a bank account before you pay it; the same number and bank can then be paid with a BANK money-out.',
      summary: 'Resolve the holder of a Kenyan or Nigerian bank account',
      tags: ['Payments'],
      auth: 'issuer',
      body: AccountResolveBody,
      responses: { '200': { description: 'The account holder', schema: BankAccountResolutionResponse }, ...AUTH_ERRORS, ...SHAPE_C_ERRORS },
      handler: async (req, res) => {
        const result = await app.resolveBankAccount(req.tenantId, req.body);
        if (!result.ok) return BANK_ERRORS[result.code](res, result, req);
        res.json(result.value);
      },
    }),
    defineRoute<z.infer<typeof IdResolveBody>>({
      method: 'post',
      path: '/id/resolve',
      operationId: 'resolveIdentifier',
      description: 'Resolves a username at a wallet issuer to its wallet address, network and the memo reference to attach when sending to it.',
      summary: "Resolve a username at a wallet issuer into the recipient's stablecoin wallet address",
      tags: ['Payments'],
      auth: 'issuer',
      body: IdResolveBody,
      responses: { '200': { description: 'The wallet address and the memo reference to attach', schema: IdentifierResolutionResponse }, ...AUTH_ERRORS, ...SHAPE_C_ERRORS },
      handler: async (req, res) => {
        const result = await app.resolveIdentifier(req.body);
        if (!result.ok) return ID_ERRORS[result.code](res, result, req);
        res.json(result.value);
      },
    }),
  ];
}
