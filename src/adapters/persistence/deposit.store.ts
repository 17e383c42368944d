import type { EntityManager } from '@mikro-orm/postgresql';
import type { Deposit, DepositFinding } from '../../core/deposits/deposit';
import type { ChainCursor, DepositPatch, DepositStore } from '../../core/deposits/deposit-ports';
import type { DepositStatus } from '../../core/deposits/deposit';
import { depositOf } from './deposit-rows';

/** Column of each DepositPatch member. */
const PATCH_COLUMNS: Record<keyof DepositPatch, string> = {
  status: 'status', height: 'height', blockHash: 'block_hash', ledgerTransactionId: 'ledger_transaction_id', creditedAt: 'credited_at', droppedAt: 'dropped_at',
};

/**
 * The deposit register (DepositStore port) in one transaction (docs/decisions.md § Onchain
 * deposits). `on conflict do nothing` on the unique (blockchain, tx_hash, transfer_index): a
 * duplicate writes nothing and raises nothing, and a concurrent insert of the same key waits for
 * the first transaction's outcome. Moves are one guarded update each.
 */
export class DepositTxStore implements DepositStore {
  constructor(private readonly em: EntityManager) {}

  async insert(d: Deposit): Promise<'inserted' | 'duplicate'> {
    const rows = await this.em.execute<unknown[]>(
      `insert into deposits (id, tenant_id, blockchain, tx_hash, transfer_index, currency, amount, remainder_units, token, sender, address, height,
                             block_hash, status, source, ledger_transaction_id, created_at, credited_at, dropped_at)
       values (?, ?, ?, ?, ?, ?, ?::numeric, ?::numeric, ?, ?, ?, ?::bigint, ?, ?, ?, ?, ?, ?, ?)
       on conflict (blockchain, tx_hash, transfer_index) do nothing returning id`,
      [d.id, d.tenantId, d.blockchain, d.txHash, d.index, d.currency, d.amount, d.remainderUnits, d.token, d.sender, d.address,
        d.height?.toString() ?? null, d.blockHash, d.status, d.source, d.ledgerTransactionId, d.createdAt, d.creditedAt, d.droppedAt],
    );
    return rows.length === 1 ? 'inserted' : 'duplicate';
  }

  async move(id: string, from: DepositStatus, patch: DepositPatch, at?: { height: bigint; blockHash: string }): Promise<Deposit | undefined> {
    const members = (Object.keys(patch) as (keyof DepositPatch)[]).filter((k) => patch[k] !== undefined);
    if (members.length === 0) throw new Error('a deposit move must change something');
    const sets = members.map((k) => `${PATCH_COLUMNS[k]} = ?${k === 'height' ? '::bigint' : ''}`);
    const values = members.map((k) => (k === 'height' ? String(patch.height) : patch[k]));
    const where = at ? ' and height = ?::bigint and block_hash = ?' : '';
    const rows = await this.em.execute<Record<string, unknown>[]>(
      `update deposits set ${sets.join(', ')} where id = ? and status = ?${where} returning *`,
      [...values, id, from, ...(at ? [at.height.toString(), at.blockHash] : [])],
    );
    return rows[0] ? depositOf(rows[0]) : undefined;
  }

  async recordFinding(f: DepositFinding): Promise<'inserted' | 'duplicate'> {
    const rows = await this.em.execute<unknown[]>(
      `insert into deposit_findings (id, kind, tenant_id, blockchain, tx_hash, transfer_index, token, sender, address, units, decimals, height, block_hash, created_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?::numeric, ?, ?::bigint, ?, ?)
       on conflict (blockchain, tx_hash, transfer_index) do nothing returning id`,
      [f.id, f.kind, f.tenantId, f.blockchain, f.txHash, f.index, f.token, f.sender, f.address, f.units, f.decimals, f.height.toString(), f.blockHash, f.createdAt],
    );
    return rows.length === 1 ? 'inserted' : 'duplicate';
  }

  async saveCursor(c: ChainCursor, holder: string): Promise<'saved' | 'lease_lost'> {
    const rows = await this.em.execute<unknown[]>(
      `update chain_watchers set cursor = ?, scanned_to = ?::bigint, head = ?::bigint, finalized = ?::bigint, heights_at = ?, caught_up_at = ?, updated_at = ?
        where blockchain = ? and lease_holder = ? returning blockchain`,
      [c.cursor, c.scannedTo?.toString() ?? null, c.head.toString(), c.finalized.toString(), c.heightsAt, c.caughtUpAt, c.heightsAt, c.chain, holder],
    );
    return rows.length === 1 ? 'saved' : 'lease_lost';
  }
}
