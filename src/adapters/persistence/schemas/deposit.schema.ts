import { EntitySchema } from '@mikro-orm/core';
import type { Deposit } from '../../../core/ledger/ledger';
import { PlainDecimalType } from './plain-decimal.type';

/**
 * Table `deposits`: the register of credited onchain deposits (docs/decisions.md § Ledger). Its
 * unique (blockchain, tx_hash) makes a deposit creditable once across all tenants; a check keeps
 * every hash in canonical form (lower-case hex on BSC, a 64-byte base58 signature on SOLANA).
 */
export const DepositSchema = new EntitySchema<Deposit>({
  name: 'Deposit',
  tableName: 'deposits',
  uniques: [{ name: 'deposits_chain_hash_unique', properties: ['blockchain', 'txHash'] }],
  indexes: [{ name: 'deposits_tenant_created_idx', properties: ['tenantId', 'createdAt'] }],
  checks: [{
    name: 'deposits_tx_hash_canonical_check',
    expression: "(blockchain = 'BSC' and tx_hash ~ '^0x[0-9a-f]{64}$') or (blockchain = 'SOLANA' and base58_byte_length(tx_hash) = 64)",
  }],
  properties: {
    id: { type: 'string', primary: true, length: 40 },
    tenantId: { type: 'string', length: 40 },
    blockchain: { type: 'string', length: 10 },
    txHash: { type: 'string', length: 90 },
    currency: { type: 'string', length: 4 },
    amount: { type: PlainDecimalType },
    ledgerTransactionId: { type: 'string', length: 40, unique: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
