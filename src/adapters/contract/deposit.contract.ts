import { z } from 'zod';
import { BLOCKCHAINS } from '../../core/catalog/catalog';
import { DEPOSIT_SOURCES, DEPOSIT_STATUSES } from '../../core/deposits/deposit';
import type { DepositListQuery } from '../../core/deposits/list-deposits';
import { STABLECOINS } from '../../core/shared/money';
import { DecimalString } from './amount.schema';
import { PageQuery } from './page.schema';

/** A deposit id as the examples show it. */
export const EXAMPLE_DEPOSIT_ID = 'dep_01JD6M3Q5S7U9W1Y3A5C7E9G1J';
const EXAMPLE_HASH = '0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060';
const EXAMPLE_ADDRESS = '0x8C8d35429F74ec245F8Ef2f4Fd1e551cFF97d650';

/**
 * The deposit resource (OpenAPI getDeposit, listDeposits; the data of deposit.* webhooks;
 * GraphQL `Deposit`), each field described once (docs/decisions.md § Onchain deposits).
 */
export const DepositResponse = z
  .object({
    id: z.string().meta({ description: 'Deposit id: dep_ and a ULID', example: EXAMPLE_DEPOSIT_ID }),
    blockchain: z.enum(BLOCKCHAINS).meta({ description: 'The chain it was sent on', example: 'BSC' }),
    currency: z.enum(STABLECOINS).meta({ description: 'The stablecoin credited', example: 'USDT' }),
    token: z.string().nullable().meta({ description: 'Token contract (BSC, lower case) or mint (SOLANA) sent; null for an operator correction', example: '0x55d398326f99059ff775485246999027b3197955' }),
    amount: DecimalString.meta({ description: 'What the balance is (or will be) credited, 6 decimal places: the amount sent cut to 6 places', example: '250.123456' }),
    remainderUnits: z.string().regex(/^\d+$/).meta({ description: "The token's base units below 6 places, not credited (18-decimal tokens); a non-negative integer as text", example: '789000000000' }),
    sender: z.string().nullable().meta({ description: 'The sending address (BSC) or source token account owner (SOLANA); null for a correction', example: '0x4B16c5dE96EB2117bBE5fd171E4d203624B014aa' }),
    depositAddress: z.string().nullable().meta({ description: 'Your deposit address it paid (the owner address on SOLANA); null for a correction', example: EXAMPLE_ADDRESS }),
    txHash: z.string().meta({ description: 'Transaction hash (BSC, lower case) or signature (SOLANA)', example: EXAMPLE_HASH }),
    index: z.number().int().meta({ description: 'Log index (BSC) or instruction position (SOLANA) of the transfer in its transaction: two transfers of one transaction are two deposits', example: 3 }),
    height: z.number().int().nullable().meta({ description: 'Block (BSC) or slot (SOLANA) including it; null for a correction', example: 44218571 }),
    confirmations: z.number().int().nullable().meta({ description: 'Blocks or slots from its own to the newest the watcher read, its own counted; null when dropped or for a correction', example: 3 }),
    status: z.enum(DEPOSIT_STATUSES).meta({ description: 'detected → credited once final, or dropped when a reorganisation removed it before it was final (the balance never moved); held when final but its sender is an OFAC-listed address (not credited, under compliance review), then rejected (never credited)', example: 'credited' }),
    source: z.enum(DEPOSIT_SOURCES).meta({ description: 'chain: read by the chain watcher; operator: an audited correction', example: 'chain' }),
    ledgerTransactionId: z.string().nullable().meta({ description: 'The ledger transaction that credited it (GET /v1/balances/transactions); null unless credited', example: 'ldg_01JD6M3R7T9V1X3Z5B7D9F1H3K' }),
    createdAt: z.iso.datetime().meta({ description: 'When it was detected (a correction: recorded)', example: '2026-11-27T10:15:02.118Z' }),
    creditedAt: z.iso.datetime().nullable().meta({ description: 'When the balance was credited; null unless credited', example: '2026-11-27T10:15:04.530Z' }),
    droppedAt: z.iso.datetime().nullable().meta({ description: 'When it was dropped; null unless dropped', example: null }),
  })
  .meta({
    id: 'Deposit',
    description: 'A stablecoin transfer to one of your deposit addresses (or an operator correction); the balance moves once, when it is final',
    example: {
      id: EXAMPLE_DEPOSIT_ID, blockchain: 'BSC', currency: 'USDT', token: '0x55d398326f99059ff775485246999027b3197955', amount: '250.123456',
      remainderUnits: '789000000000', sender: '0x4B16c5dE96EB2117bBE5fd171E4d203624B014aa', depositAddress: EXAMPLE_ADDRESS, txHash: EXAMPLE_HASH,
      index: 3, height: 44218571, confirmations: 3, status: 'credited', source: 'chain', ledgerTransactionId: 'ldg_01JD6M3R7T9V1X3Z5B7D9F1H3K',
      createdAt: '2026-11-27T10:15:02.118Z', creditedAt: '2026-11-27T10:15:04.530Z', droppedAt: null,
    },
  });

/** Where a tenant pays one stablecoin on one chain (OpenAPI listDepositAddresses; GraphQL `DepositAddress`). */
export const DepositAddressResponse = z
  .object({
    blockchain: z.enum(BLOCKCHAINS).meta({ description: 'The chain', example: 'BSC' }),
    currency: z.enum(STABLECOINS).meta({ description: 'The stablecoin credited when sent here', example: 'USDT' }),
    address: z.string().meta({ description: 'Where to send it: your deposit address on BSC, its associated token account for this mint on SOLANA', example: EXAMPLE_ADDRESS }),
    ownerAddress: z.string().meta({ description: 'Your deposit address (the token accounts\' owner on SOLANA); it never changes and serves you alone', example: EXAMPLE_ADDRESS }),
    token: z.string().meta({ description: 'The token contract (BSC) or mint (SOLANA) to send: any other token is never credited', example: '0x55d398326f99059ff775485246999027b3197955' }),
  })
  .meta({ id: 'DepositAddress', description: 'Where to send one stablecoin on one chain to fund your balance' });

/**
 * A filter that matches any of several values: repeated (`status=credited&status=dropped`) or
 * comma-separated (`status=credited,dropped`), as the payment list takes them.
 */
function anyOf<const T extends readonly [string, ...string[]]>(values: T, description: string) {
  return z
    .preprocess(
      (raw) => (typeof raw === 'string' ? raw.split(',') : Array.isArray(raw) ? raw.flatMap((v) => (typeof v === 'string' ? v.split(',') : [v])) : raw),
      z.array(z.enum(values)).min(1).max(values.length),
    )
    .optional()
    .meta({ description });
}

/** The deposit list's filters (docs/api.md § Lists and paging), for REST's query and GraphQL's `filter`. */
export const DepositListFilterFields = {
  blockchain: anyOf(BLOCKCHAINS, 'Only deposits on one of these chains (repeat the parameter or separate values with commas)'),
  currency: anyOf(STABLECOINS, 'Only deposits of one of these stablecoins'),
  status: anyOf(DEPOSIT_STATUSES, 'Only deposits in one of these statuses'),
  createdFrom: z.iso.datetime({ offset: true }).optional().meta({ description: 'Only deposits detected at or after this instant (inclusive, ISO 8601)', example: '2026-11-01T00:00:00Z' }),
  createdTo: z.iso.datetime({ offset: true }).optional().meta({ description: 'Only deposits detected before this instant (exclusive, ISO 8601)', example: '2026-12-01T00:00:00Z' }),
} as const;

/** Query of GET /v1/deposits (OpenAPI listDeposits): `limit` and `cursor` of every list, plus the filters. */
export const DepositListQuerySchema = PageQuery.extend(DepositListFilterFields);

/** The REST query (or GraphQL's filter and page) as the core's list query. */
export function toDepositListQuery(query: z.output<typeof DepositListQuerySchema>): DepositListQuery {
  return {
    limit: query.limit,
    ...(query.cursor !== undefined ? { cursor: query.cursor } : {}),
    filter: {
      ...(query.blockchain ? { blockchain: query.blockchain } : {}),
      ...(query.currency ? { currency: query.currency } : {}),
      ...(query.status ? { status: query.status } : {}),
      ...(query.createdFrom ? { createdFrom: new Date(query.createdFrom) } : {}),
      ...(query.createdTo ? { createdTo: new Date(query.createdTo) } : {}),
    },
  };
}

/** Path of GET /v1/deposits/{depositId}. */
export const DepositParams = z.object({ depositId: z.string().max(64).meta({ description: 'Deposit id (dep_...)', example: EXAMPLE_DEPOSIT_ID }) });
