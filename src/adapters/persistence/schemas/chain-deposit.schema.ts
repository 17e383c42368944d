import { EntitySchema } from '@mikro-orm/core';

/** Row of `deposit_addresses` (docs/decisions.md § Onchain deposits: addresses). */
export interface DepositAddressRow {
  blockchain: string;
  derivationIndex: number;
  tenantId: string;
  keyId: string;
  address: string;
  /** `address` as compared: lower case on BSC, as written on Solana. */
  addressKey: string;
  createdAt: Date;
}

/**
 * Table `deposit_addresses`: the tenants' deposit addresses. Its keys are the rules: one per
 * (tenant, chain, key); a derivation index serves once per chain (drawn from that chain's
 * sequence, never reused); an address serves one tenant.
 */
export const DepositAddressSchema = new EntitySchema<DepositAddressRow>({
  name: 'DepositAddress',
  tableName: 'deposit_addresses',
  uniques: [
    { name: 'deposit_addresses_tenant_chain_key_unique', properties: ['tenantId', 'blockchain', 'keyId'] },
    { name: 'deposit_addresses_address_unique', properties: ['blockchain', 'addressKey'] },
  ],
  indexes: [{ name: 'deposit_addresses_chain_key_idx', properties: ['blockchain', 'keyId'] }],
  checks: [{ name: 'deposit_addresses_index_check', expression: 'derivation_index >= 0' }],
  properties: {
    blockchain: { type: 'string', length: 10, primary: true },
    derivationIndex: { type: 'integer', primary: true },
    tenantId: { type: 'string', length: 40 },
    keyId: { type: 'string', length: 120 },
    address: { type: 'string', length: 64 },
    addressKey: { type: 'string', length: 64 },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
  },
});

/** Row of `chain_watchers`: where one chain's watcher stands, and who holds its lease. */
export interface ChainWatcherRow {
  blockchain: string;
  cursor: string | null;
  scannedTo: string | null;
  head: string;
  finalized: string;
  heightsAt: Date | null;
  caughtUpAt: Date | null;
  leaseHolder: string | null;
  leaseUntil: Date | null;
  updatedAt: Date;
}

/**
 * Table `chain_watchers` (docs/decisions.md § Onchain deposits: watchers): one row per chain, its
 * cursor and last heights (a restart resumes there), and the lease a replica holds while it is
 * that chain's one active watcher.
 */
export const ChainWatcherSchema = new EntitySchema<ChainWatcherRow>({
  name: 'ChainWatcher',
  tableName: 'chain_watchers',
  properties: {
    blockchain: { type: 'string', length: 10, primary: true },
    cursor: { type: 'text', nullable: true },
    scannedTo: { type: 'bigint', nullable: true },
    head: { type: 'bigint', default: 0 },
    finalized: { type: 'bigint', default: 0 },
    heightsAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    caughtUpAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    leaseHolder: { type: 'string', length: 100, nullable: true },
    leaseUntil: { type: 'Date', columnType: 'timestamptz', nullable: true },
    updatedAt: { type: 'Date', columnType: 'timestamptz' },
  },
});

/** Row of `deposit_findings` (docs/decisions.md § Onchain deposits). */
export interface DepositFindingRow {
  id: string;
  kind: string;
  tenantId: string;
  blockchain: string;
  txHash: string;
  transferIndex: number;
  token: string;
  sender: string;
  address: string;
  units: string;
  decimals: number;
  height: string;
  blockHash: string;
  createdAt: Date;
}

/**
 * Table `deposit_findings`: transfers to our deposit addresses that are never credited (another
 * token, dust, an oversized amount), for operators; one per (blockchain, tx_hash, transfer_index).
 */
export const DepositFindingSchema = new EntitySchema<DepositFindingRow>({
  name: 'DepositFinding',
  tableName: 'deposit_findings',
  uniques: [{ name: 'deposit_findings_key_unique', properties: ['blockchain', 'txHash', 'transferIndex'] }],
  indexes: [{ name: 'deposit_findings_created_idx', properties: ['createdAt', 'id'] }],
  checks: [{ name: 'deposit_findings_kind_check', expression: "kind in ('foreign_token', 'dust', 'oversized')" }],
  properties: {
    id: { type: 'uuid', primary: true },
    kind: { type: 'string', length: 20 },
    tenantId: { type: 'string', length: 40 },
    blockchain: { type: 'string', length: 10 },
    txHash: { type: 'string', length: 90 },
    transferIndex: { type: 'integer' },
    token: { type: 'string', length: 64 },
    sender: { type: 'string', length: 64 },
    address: { type: 'string', length: 64 },
    units: { type: 'decimal', columnType: 'numeric(78,0)' },
    decimals: { type: 'smallint' },
    height: { type: 'bigint' },
    blockHash: { type: 'string', length: 90 },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
