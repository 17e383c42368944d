import type { EntityManager } from '@mikro-orm/postgresql';
import type { Deposit, DepositStore } from '../../core/ledger/ledger';

/**
 * The deposit register (DepositStore port) in one transaction. `on conflict do nothing` on the
 * unique (blockchain, tx_hash): a duplicate writes nothing and raises nothing, and a concurrent
 * insert of the same pair waits for the first transaction's outcome (docs/decisions.md § Ledger).
 */
export class DepositTxStore implements DepositStore {
  constructor(private readonly em: EntityManager) {}

  async insert(d: Deposit): Promise<'inserted' | 'duplicate'> {
    const rows = await this.em.execute<unknown[]>(
      `insert into deposits (id, tenant_id, blockchain, tx_hash, currency, amount, ledger_transaction_id, created_at)
       values (?, ?, ?, ?, ?, ?::numeric, ?, ?) on conflict (blockchain, tx_hash) do nothing returning id`,
      [d.id, d.tenantId, d.blockchain, d.txHash, d.currency, d.amount, d.ledgerTransactionId, d.createdAt],
    );
    return rows.length === 1 ? 'inserted' : 'duplicate';
  }
}
