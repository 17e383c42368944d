import type { Blockchain } from '../../core/catalog/catalog';
import type { Deposit, DepositFinding, DepositFindingKind, DepositSource, DepositStatus } from '../../core/deposits/deposit';
import type { ChainCursor, DepositAddress } from '../../core/deposits/deposit-ports';
import type { Stablecoin } from '../../core/shared/money';

/**
 * Raw rows of the deposit tables (docs/decisions.md § Onchain deposits) read into the core's
 * objects: bigint columns arrive as text (read as BigInt), numerics as text, timestamps as text or
 * Date depending on the path (read as Date).
 */

type Row = Record<string, unknown>;

const date = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v)));
const dateOrNull = (v: unknown): Date | null => (v === null || v === undefined ? null : date(v));
const bigOrNull = (v: unknown): bigint | null => (v === null || v === undefined ? null : BigInt(String(v)));
const textOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
/** A whole numeric(78,0) as text without a fraction ("12" whatever the driver wrote). */
const integerText = (v: unknown): string => BigInt(String(v).replace(/\.0*$/, '')).toString();

/** A `deposits` row (select *) as the core's Deposit. */
export function depositOf(row: Row): Deposit {
  return {
    id: String(row.id), tenantId: String(row.tenant_id), blockchain: row.blockchain as Blockchain, txHash: String(row.tx_hash),
    index: Number(row.transfer_index), currency: row.currency as Stablecoin, amount: String(row.amount), remainderUnits: integerText(row.remainder_units),
    token: textOrNull(row.token), sender: textOrNull(row.sender), address: textOrNull(row.address), height: bigOrNull(row.height),
    blockHash: textOrNull(row.block_hash), status: row.status as DepositStatus, source: row.source as DepositSource,
    ledgerTransactionId: textOrNull(row.ledger_transaction_id), createdAt: date(row.created_at), creditedAt: dateOrNull(row.credited_at),
    droppedAt: dateOrNull(row.dropped_at),
  };
}

/** A `deposit_findings` row as the core's DepositFinding. */
export function findingOf(row: Row): DepositFinding {
  return {
    id: String(row.id), kind: row.kind as DepositFindingKind, tenantId: String(row.tenant_id), blockchain: row.blockchain as Blockchain,
    txHash: String(row.tx_hash), index: Number(row.transfer_index), token: String(row.token), sender: String(row.sender), address: String(row.address),
    units: integerText(row.units), decimals: Number(row.decimals), height: BigInt(String(row.height)), blockHash: String(row.block_hash),
    createdAt: date(row.created_at),
  };
}

/** A `deposit_addresses` row as the core's DepositAddress. */
export function addressOf(row: Row): DepositAddress {
  return {
    tenantId: String(row.tenant_id), blockchain: row.blockchain as Blockchain, keyId: String(row.key_id), index: Number(row.derivation_index),
    address: String(row.address), createdAt: date(row.created_at),
  };
}

/** A `chain_watchers` row as the core's ChainCursor; undefined for a row no pass has written yet (a lease only). */
export function cursorOf(row: Row): ChainCursor | undefined {
  if (row.heights_at === null || row.heights_at === undefined) return undefined;
  return {
    chain: row.blockchain as Blockchain, cursor: textOrNull(row.cursor), scannedTo: bigOrNull(row.scanned_to), head: BigInt(String(row.head)),
    finalized: BigInt(String(row.finalized)), heightsAt: date(row.heights_at), caughtUpAt: dateOrNull(row.caught_up_at),
  };
}

/** An address as compared and kept unique: lower case on BSC (hex is case-insensitive), as written on Solana (base58 is not). */
export function addressKey(chain: Blockchain, address: string): string {
  return chain === 'BSC' ? address.toLowerCase() : address;
}
