import type { Response } from 'express';
import { z } from 'zod';
import type { AdminApplication } from '../../core/admin/admin-application';
import type { Application } from '../../core/application';
import { BLOCKCHAINS } from '../../core/catalog/catalog';
import { FINDING_KINDS } from '../../core/deposits/deposit';
import { DepositAddressResponse, DepositListQuerySchema, DepositParams, DepositResponse, toDepositListQuery } from '../contract/deposit.contract';
import { AUTH_ERRORS, ErrorA } from './common.schema';
import { fieldsOf, sendShapeA } from './http-errors';
import { nextPageLink, PAGE_PARAMS } from './pagination';
import { defineRoute, type RouteSpec } from './route';

/** Routes of the Deposits tag (docs/decisions.md § Onchain deposits; OpenAPI listDepositAddresses, listDeposits, getDeposit). */
export function depositRoutes(app: Application): RouteSpec<any, any, any>[] {
  const common = { tags: ['Deposits'], auth: 'issuer' } as const;
  return [
    defineRoute({
      ...common, method: 'get', path: '/v1/deposit-addresses', operationId: 'listDepositAddresses',
      summary: 'Where to send USDC and USDT onchain to fund your balance, per chain and currency',
      description: 'Your deposit address on each chain you are served on, one entry per stablecoin that chain credits: send exactly that token to `address` '
        + '(your address itself on BSC, its associated token account for the mint on SOLANA). An address is assigned on first read and never changes; it serves '
        + 'you alone. Another token sent there is never credited. Sandbox tenants get addresses of the development key when no chain is configured.',
      responses: { '200': { description: 'One entry per chain and stablecoin (empty when no chain serves you)', schema: z.array(DepositAddressResponse) }, ...AUTH_ERRORS },
      handler: async (req, res) => void res.json(await app.listDepositAddresses(req.tenantId)),
    }),
    defineRoute<undefined, z.output<typeof DepositListQuerySchema>>({
      ...common, method: 'get', path: '/v1/deposits', operationId: 'listDeposits',
      summary: 'Your onchain deposits, newest first, with filters; the next page is in the Link header',
      description: 'Your deposits, newest first (by detection time), filtered by blockchain, currency, status and a createdAt range (createdFrom inclusive, '
        + 'createdTo exclusive); filters combine with AND, several values of one filter match any. A deposit is detected when the watcher reads it and '
        + 'credited once final (or dropped when a reorganisation removed it first). limit 1..100 (default 50); follow the Link header for the next page.',
      query: DepositListQuerySchema,
      responses: { '200': { description: 'One page of deposits, newest first (empty when nothing matches)', schema: z.array(DepositResponse) }, ...AUTH_ERRORS },
      handler: async (req, res) => {
        const result = await app.listDeposits(req.tenantId, toDepositListQuery(req.query));
        if (!result.ok) return sendShapeA(res, result.code, result.message, fieldsOf(result, req, PAGE_PARAMS));
        if (result.value.nextCursor) res.set('Link', nextPageLink(req.raw, req.query, result.value.nextCursor));
        res.json(result.value.entries);
      },
    }),
    defineRoute<undefined, undefined, z.infer<typeof DepositParams>>({
      ...common, method: 'get', path: '/v1/deposits/{depositId}', operationId: 'getDeposit',
      summary: 'One of your onchain deposits',
      description: "A deposit of yours with its confirmations now. Another tenant's id answers 404, like an unknown one.",
      params: DepositParams,
      responses: { '200': { description: 'The deposit', schema: DepositResponse }, ...AUTH_ERRORS, '404': { description: 'No such deposit for this tenant (not_found)', schema: ErrorA } },
      handler: async (req, res: Response) => {
        const result = await app.getDeposit(req.tenantId, req.params.depositId);
        if (!result.ok) return sendShapeA(res, result.code, result.message, fieldsOf(result, req));
        res.json(result.value);
      },
    }),
  ];
}

const FindingView = z.object({
  id: z.uuid().meta({ description: 'Finding id', example: '6f1c2e4a-8b3d-4c5e-9f7a-1b2c3d4e5f60' }),
  kind: z.enum(FINDING_KINDS).meta({ description: 'foreign_token: a token we do not watch; dust: below the ledger\'s 6 places; oversized: at or above 10^15', example: 'foreign_token' }),
  tenantId: z.string().meta({ description: 'The tenant whose address was paid', example: 'ten_01JD4Y9R3T6V8X0Z2B4D6F8H0K' }),
  blockchain: z.enum(BLOCKCHAINS).meta({ description: 'The chain', example: 'BSC' }),
  txHash: z.string().meta({ description: 'Transaction hash or signature', example: '0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060' }),
  index: z.number().int().meta({ description: 'Log index or instruction position', example: 0 }),
  token: z.string().meta({ description: 'The token contract or mint sent', example: '0xe9e7cea3dedca5984780bafc599bd69add087d56' }),
  sender: z.string().meta({ description: 'The sender', example: '0x4B16c5dE96EB2117bBE5fd171E4d203624B014aa' }),
  depositAddress: z.string().meta({ description: 'The deposit address paid', example: '0x8C8d35429F74ec245F8Ef2f4Fd1e551cFF97d650' }),
  units: z.string().meta({ description: "Base units sent (a non-negative integer as text)", example: '5000000000000000000' }),
  decimals: z.number().int().meta({ description: 'The decimals the chain reader reported for the token', example: 18 }),
  height: z.number().int().meta({ description: 'Block or slot', example: 44218571 }),
  createdAt: z.iso.datetime().meta({ description: 'When the watcher recorded it', example: '2026-11-27T10:15:02.118Z' }),
}).meta({ id: 'DepositFinding', description: 'A transfer to a deposit address that is never credited, for operators' });

/** Admin route of deposit findings (docs/decisions.md § Onchain deposits): what the watcher saw and never credited. */
export function depositFindingRoutes(admin: AdminApplication): RouteSpec<any, any, any>[] {
  return [
    defineRoute<undefined, { limit: number }>({
      tags: ['Admin'], auth: 'admin', method: 'get', path: '/v1/admin/deposit-findings', operationId: 'listDepositFindings',
      summary: 'Transfers to deposit addresses that were never credited (another token, dust, oversized), newest first',
      description: 'Platform admin key. What the chain watchers recorded instead of crediting: another token sent to a deposit address, an amount below '
        + 'the ledger\'s 6 places, or one at or above 10^15. Nothing credits them; an operator decides what to do with the funds.',
      query: z.strictObject({ limit: z.coerce.number().int().min(1).max(500).default(100).meta({ description: 'Most findings to return, 1 to 500', example: 100 }) }),
      responses: { '200': { description: 'Findings', schema: z.array(FindingView) }, ...AUTH_ERRORS },
      handler: async (req, res) => void res.json(await admin.listDepositFindings(req.query.limit)),
    }),
  ];
}
