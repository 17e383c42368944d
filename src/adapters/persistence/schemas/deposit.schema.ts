import { EntitySchema } from '@mikro-orm/core';
import { PlainDecimalType } from './plain-decimal.type';

/** Row of `deposits` as stored (docs/decisions.md § Onchain deposits); read into the core's Deposit by deposit-rows.ts. */
export interface DepositRow {
  id: string;
  tenantId: string;
  blockchain: string;
  txHash: string;
  transferIndex: number;
  currency: string;
  amount: string;
  remainderUnits: string;
  token: string | null;
  sender: string | null;
  address: string | null;
  height: string | null;
  blockHash: string | null;
  status: string;
  source: string;
  ledgerTransactionId: string | null;
  createdAt: Date;
  creditedAt: Date | null;
  droppedAt: Date | null;
}

/**
 * Table `deposits`: every onchain deposit, detected by the chain watcher or recorded by an
 * operator's correction (docs/decisions.md § Onchain deposits). Its unique (blockchain, tx_hash,
 * transfer_index) makes a transfer creditable once across all tenants; checks keep every hash in
 * canonical form, a ledger transaction on exactly the credited rows, and the chain's coordinates
 * on every row the watcher wrote. The partial index serves the finality pass.
 */
export const DepositSchema = new EntitySchema<DepositRow>({
  name: 'Deposit',
  tableName: 'deposits',
  uniques: [{ name: 'deposits_chain_hash_index_unique', properties: ['blockchain', 'txHash', 'transferIndex'] }],
  indexes: [
    { name: 'deposits_tenant_created_idx', properties: ['tenantId', 'createdAt'] },
    {
      name: 'deposits_detected_idx', properties: ['blockchain', 'height', 'id'],
      expression: 'create index "deposits_detected_idx" on "deposits" ("blockchain", "height", "id") where "status" = \'detected\'',
    },
  ],
  checks: [
    {
      name: 'deposits_tx_hash_canonical_check',
      expression: "(blockchain = 'BSC' and tx_hash ~ '^0x[0-9a-f]{64}$') or (blockchain = 'SOLANA' and base58_byte_length(tx_hash) = 64)",
    },
    { name: 'deposits_status_check', expression: "status in ('detected', 'credited', 'dropped', 'held', 'rejected')" },
    { name: 'deposits_source_check', expression: "source in ('chain', 'operator')" },
    { name: 'deposits_transfer_index_check', expression: 'transfer_index >= 0' },
    { name: 'deposits_remainder_check', expression: 'remainder_units >= 0' },
    { name: 'deposits_credited_check', expression: "(status = 'credited') = (ledger_transaction_id is not null and credited_at is not null)" },
    { name: 'deposits_dropped_check', expression: "(status = 'dropped') = (dropped_at is not null)" },
    {
      name: 'deposits_chain_coordinates_check',
      expression: "source = 'operator' or (token is not null and sender is not null and address is not null and height is not null and block_hash is not null)",
    },
  ],
  properties: {
    id: { type: 'string', primary: true, length: 40 },
    tenantId: { type: 'string', length: 40 },
    blockchain: { type: 'string', length: 10 },
    txHash: { type: 'string', length: 90 },
    transferIndex: { type: 'integer', default: 0 },
    currency: { type: 'string', length: 4 },
    amount: { type: PlainDecimalType },
    remainderUnits: { type: 'decimal', columnType: 'numeric(78,0)', default: 0 },
    token: { type: 'string', length: 64, nullable: true },
    sender: { type: 'string', length: 64, nullable: true },
    address: { type: 'string', length: 64, nullable: true },
    height: { type: 'bigint', nullable: true },
    blockHash: { type: 'string', length: 90, nullable: true },
    status: { type: 'string', length: 10, default: 'credited' },
    source: { type: 'string', length: 10, default: 'operator' },
    ledgerTransactionId: { type: 'string', length: 40, unique: true, nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
    creditedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    droppedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
  },
});
