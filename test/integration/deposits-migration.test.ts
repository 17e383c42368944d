import { migrationDatabase } from '../support/migration-database';
import { bscTxHash, solanaTxHash } from '../support/tx-hashes';

/** The last migration before onchain deposits. */
const BEFORE = 'Migration20261127090000';
const DEPOSITS = 'Migration20261127100000';

/**
 * The onchain deposits migration on a database holding corrections credited before it
 * (docs/decisions.md § Onchain deposits): each becomes a credited correction at index 0, credited
 * when it was recorded, its columns and ledger transaction untouched; the key becomes (blockchain,
 * hash, index), and the anomalies view still names the first credit of a legacy duplicate.
 */
describe('deposits gain index, status and chain coordinates', () => {
  const { sql, migrateUp } = migrationDatabase('payout_depmig', BEFORE);

  it('keeps every existing deposit as a credited correction at index 0, and lets another index of its hash in', async () => {
    await sql(`insert into tenants (id, name, environment, created_at) values ('ten_MIG', 'Migrated', 'live', now())`);
    const bsc = bscTxHash();
    const signature = solanaTxHash();
    for (const [n, blockchain, hash] of [[1, 'BSC', bsc], [2, 'SOLANA', signature]] as const) {
      await sql(`insert into ledger_transactions (id, tenant_id, currency, kind, amount, from_kind, to_kind, external_ref, created_at)
                 values (?, 'ten_MIG', 'USDC', 'deposit', 100, 'funding', 'available', ?, ?)`, [`ldg_MIG${n}`, `${blockchain}:${hash}`, new Date(`2026-02-0${n}T00:00:00Z`)]);
      await sql(`insert into deposits (id, tenant_id, blockchain, tx_hash, currency, amount, ledger_transaction_id, created_at)
                 values (?, 'ten_MIG', ?, ?, 'USDC', 100, ?, ?)`, [`dep_MIG${n}`, blockchain, hash, `ldg_MIG${n}`, new Date(`2026-02-0${n}T00:00:00Z`)]);
    }
    // A second credit of the BSC hash, from before the register: an anomaly.
    await sql(`insert into ledger_transactions (id, tenant_id, currency, kind, amount, from_kind, to_kind, external_ref, created_at)
               values ('ldg_MIG3', 'ten_MIG', 'USDC', 'deposit', 5, 'funding', 'available', ?, now())`, [`BSC:${bsc.toUpperCase().replace('0X', '0x')}`]);

    await migrateUp(DEPOSITS);

    expect(await sql(`select id, transfer_index, status, source, amount::text, remainder_units::text, credited_at = created_at as credited_when_recorded,
                             dropped_at, height, ledger_transaction_id from deposits order by id`)).toEqual(['1', '2'].map((n) => ({
      id: `dep_MIG${n}`, transfer_index: 0, status: 'credited', source: 'operator', amount: '100.000000', remainder_units: '0',
      credited_when_recorded: true, dropped_at: null, height: null, ledger_transaction_id: `ldg_MIG${n}`,
    })));
    expect(await sql('select ledger_transaction_id, problem, first_credit_ledger_transaction_id from deposit_anomalies')).toEqual([
      { ledger_transaction_id: 'ldg_MIG3', problem: 'duplicate', first_credit_ledger_transaction_id: 'ldg_MIG1' },
    ]);
    await sql(`insert into deposits (id, tenant_id, blockchain, tx_hash, transfer_index, currency, amount, ledger_transaction_id, created_at, credited_at)
               values ('dep_MIG4', 'ten_MIG', 'BSC', ?, 1, 'USDC', 1, 'ldg_MIG4', now(), now())`, [bsc]);
    await expect(sql(`insert into deposits (id, tenant_id, blockchain, tx_hash, currency, amount, ledger_transaction_id, created_at, credited_at)
               values ('dep_MIG5', 'ten_MIG', 'BSC', ?, 'USDC', 1, 'ldg_MIG5', now(), now())`, [bsc])).rejects.toThrow(/deposits_chain_hash_index_unique/);
    // Room for the longest reference: a Solana signature of 88 characters and an index.
    await sql(`insert into ledger_transactions (id, tenant_id, currency, kind, amount, from_kind, to_kind, external_ref, created_at)
               values ('ldg_MIG6', 'ten_MIG', 'USDC', 'deposit', 1, 'funding', 'available', ?, now())`, [`SOLANA:${'z'.repeat(88)}:2147483647`]);
  });
});
