import { EntitySchema } from '@mikro-orm/core';
import { PlainDecimalType } from './plain-decimal.type';

/** Row of `ledger_accounts`: one balance slot per (tenant, stablecoin, kind, slot); an account's balance is its slots' sum (docs/decisions.md § Ledger). */
export interface LedgerAccountRow {
  id: string;
  tenantId: string;
  currency: string;
  kind: string;
  slot: number;
  balance: string;
  updatedAt: Date;
}

/** Row of `ledger_transactions`: one transfer, unique per (payment, kind) and per (tenant, deposit hash). */
export interface LedgerTransactionRow {
  id: string;
  tenantId: string;
  currency: string;
  kind: string;
  amount: string;
  fromKind: string;
  toKind: string;
  paymentId: string | null;
  externalRef: string | null;
  /** The balance slot of the payment's moves (its hold's), or null for a transfer without a payment. */
  slot: number | null;
  createdAt: Date;
}

/** Row of `ledger_entries`: a signed amount on one account; a transaction's entries sum to zero. */
export interface LedgerEntryRow {
  id: number;
  transactionId: string;
  accountId: string;
  amount: string;
  createdAt: Date;
}

/** Mapping of `ledger_accounts`; tenant balances cannot go negative (check constraint; `held`'s debit rows cannot go above zero). */
export const LedgerAccountSchema = new EntitySchema<LedgerAccountRow>({
  name: 'LedgerAccount',
  tableName: 'ledger_accounts',
  uniques: [{ name: 'ledger_accounts_owner_unique', properties: ['tenantId', 'currency', 'kind', 'slot'] }],
  checks: [
    // The tenant's own balances can never go negative; only the funding counter-account does. The
    // debit rows of `held` (slots 16-31, docs/decisions.md § Ledger) only ever go down, its credit rows only up.
    { name: 'ledger_accounts_non_negative_check', expression: "case when kind = 'funding' then true when kind = 'held' and slot >= 16 then balance <= 0 else balance >= 0 end" },
  ],
  properties: {
    id: { type: 'string', primary: true, length: 40 },
    tenantId: { type: 'string', length: 40 },
    currency: { type: 'string', length: 4 },
    kind: { type: 'string', length: 16 },
    slot: { type: 'smallint', default: 0 },
    balance: { type: PlainDecimalType, default: 0 },
    updatedAt: { type: 'Date', columnType: 'timestamptz' },
  },
});

/** Mapping of `ledger_transactions`. */
export const LedgerTransactionSchema = new EntitySchema<LedgerTransactionRow>({
  name: 'LedgerTransaction',
  tableName: 'ledger_transactions',
  indexes: [{ name: 'ledger_transactions_tenant_created_idx', properties: ['tenantId', 'createdAt', 'id'] }],
  uniques: [
    { name: 'ledger_transactions_payment_kind_unique', properties: ['paymentId', 'kind'] },
    { name: 'ledger_transactions_external_ref_unique', properties: ['tenantId', 'externalRef'] },
  ],
  checks: [{ name: 'ledger_transactions_amount_positive_check', expression: 'amount > 0' }],
  properties: {
    id: { type: 'string', primary: true, length: 40 },
    tenantId: { type: 'string', length: 40 },
    currency: { type: 'string', length: 4 },
    kind: { type: 'string', length: 20 },
    amount: { type: PlainDecimalType },
    fromKind: { type: 'string', length: 16 },
    toKind: { type: 'string', length: 16 },
    paymentId: { type: 'string', length: 40, nullable: true },
    externalRef: { type: 'string', length: 120, nullable: true },
    slot: { type: 'smallint', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
  },
});

/** Mapping of `ledger_entries` (append-only; balanced per transaction by a deferred trigger). */
export const LedgerEntrySchema = new EntitySchema<LedgerEntryRow>({
  name: 'LedgerEntry',
  tableName: 'ledger_entries',
  indexes: [
    { name: 'ledger_entries_transaction_idx', properties: ['transactionId'] },
    { name: 'ledger_entries_account_idx', properties: ['accountId'] },
  ],
  properties: {
    id: { type: 'bigint', primary: true, autoincrement: true },
    transactionId: { type: 'string', length: 40 },
    accountId: { type: 'string', length: 40 },
    amount: { type: PlainDecimalType },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
