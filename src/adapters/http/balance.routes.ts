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
  .object({
    currency: z.enum(STABLECOINS).meta({ description: 'The stablecoin' }),
    available: DecimalString.meta({ description: 'Free to pay out', example: '98787.884584' }),
    held: DecimalString.meta({ description: 'Held by payments not yet accepted by a provider', example: '12.115416' }),
    inTransit: DecimalString.meta({ description: 'Sent to providers, awaiting the outcome', example: '1200.000000' }),
  })
  .meta({
    id: 'Balance', description: 'Stablecoin balance: available to spend, held by initiated payouts, in transit to the provider',
    example: { currency: 'USDC', available: '98787.884584', held: '12.115416', inTransit: '1200.000000' },
  });

const LedgerTransaction = z
  .object({
    id: z.string().meta({ description: 'Ledger transaction id (ldg_ + ULID)', example: 'ldg_01JD4ZQ8X3A5C7E9G1J3L5N7Q9' }),
    kind: z.enum(LEDGER_TRANSACTION_KINDS).meta({ description: 'deposit: onchain; sandbox_funding: a sandbox tenant\'s opening balance, never onchain (txHash null)' }),
    currency: z.enum(STABLECOINS).meta({ description: 'The stablecoin moved' }),
    amount: DecimalString.meta({ description: 'Amount moved, 6 decimal places', example: '12.115416' }),
    from: z.enum(ACCOUNT_KINDS).meta({ description: 'Account debited' }),
    to: z.enum(ACCOUNT_KINDS).meta({ description: 'Account credited' }),
    paymentId: z.string().nullable().meta({ description: 'The payment that caused it; null for deposits', example: 'pay_01JD4ZQ8W0Y8M2V6N3C5B7K9TQ' }),
    txHash: z.string().nullable().meta({ description: 'For deposits: <blockchain>:<onchain hash>, then :<index> for a transfer index other than 0 (the deposit\'s key); null otherwise', example: null }),
    createdAt: z.iso.datetime().meta({ description: 'When it was posted', example: '2026-11-23T09:41:07.512Z' }),
  })
  .meta({ id: 'LedgerTransaction', description: 'One balanced transfer between two accounts of the ledger' });




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
