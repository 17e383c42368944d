import { z } from 'zod';
import type { Application } from '../../core/application';
import { ACCOUNT_KINDS, LEDGER_TRANSACTION_KINDS } from '../../core/ledger/ledger';
import { STABLECOINS } from '../../core/shared/money';
import { AUTH_ERRORS, DecimalString } from './common.schema';
import { fieldsOf, sendShapeA } from './http-errors';
import { defineRoute, type RouteSpec } from './route';
import { PageQuery } from '../contract/page.schema';
import { nextPageLink, PAGE_PARAMS } from './pagination';

const Balance = z
  .object({ currency: z.enum(STABLECOINS), available: DecimalString, held: DecimalString, inTransit: DecimalString })
  .meta({ id: 'Balance', description: 'Stablecoin balance: available to spend, held by initiated payouts, in transit to the provider' });

const LedgerTransaction = z
  .object({
    id: z.string(),
    kind: z.enum(LEDGER_TRANSACTION_KINDS).meta({ description: 'deposit: onchain; sandbox_funding: a sandbox tenant\'s opening balance, never onchain (txHash null)' }),
    currency: z.enum(STABLECOINS),
    amount: DecimalString,
    from: z.enum(ACCOUNT_KINDS),
    to: z.enum(ACCOUNT_KINDS),
    paymentId: z.string().nullable(),
    txHash: z.string().nullable().meta({ description: 'For deposits: <blockchain>:<onchain hash>' }),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'LedgerTransaction' });




/** Routes of the Balances tag (docs/decisions.md § Ledger). */
export function balanceRoutes(app: Application): RouteSpec<any, any, any>[] {
  return [
    defineRoute({
      method: 'get', path: '/v1/balances', operationId: 'getBalances',
      description: 'Your balance per stablecoin: available to pay out, held by payments not yet accepted, and in transit with the provider. Amounts are decimal strings with 6 places.', tags: ['Balances'], auth: 'issuer',
      summary: "The tenant's stablecoin balances",
      responses: { '200': { description: 'One entry per stablecoin', schema: z.array(Balance) }, ...AUTH_ERRORS },
      handler: async (req, res) => void res.json(await app.getBalances(req.tenantId)),
    }),
    defineRoute<undefined, z.infer<typeof PageQuery>>({
      method: 'get', path: '/v1/balances/transactions', operationId: 'listBalanceTransactions',
      description: 'The ledger transactions behind your balances, newest first: deposits, holds, settlements, releases and refunds, each between two of your accounts. Page with limit and the Link header.', tags: ['Balances'], auth: 'issuer',
      summary: 'Ledger transactions of the tenant, newest first; the next page is in the Link header',
      query: PageQuery,
      responses: { '200': { description: 'One page', schema: z.array(LedgerTransaction) }, ...AUTH_ERRORS },
      handler: async (req, res) => {
        const result = await app.listLedgerTransactions(req.tenantId, req.query.limit, req.query.cursor);
        if (!result.ok) return sendShapeA(res, result.code, result.message, fieldsOf(result, req, PAGE_PARAMS));
        if (result.value.nextCursor) res.set('Link', nextPageLink(req.raw, req.query, result.value.nextCursor));
        res.json(result.value.entries);
      },
    }),
  ];
}
