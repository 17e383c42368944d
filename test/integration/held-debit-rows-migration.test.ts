import { migrationDatabase } from '../support/migration-database';

/** The last migration before held got its debit rows. */
const BEFORE = 'Migration20261126040000';

/**
 * The debit rows migration on a database whose tenants already hold money (docs/decisions.md
 * § Ledger: debit rows): each tenant and stablecoin gets 16 `held` debit rows (slots 16-31) at zero,
 * every existing row keeps its balance, and the balance check then keeps credit rows at or above
 * zero and debit rows at or below it.
 */
describe('held debit rows for existing tenants', () => {
  const { sql, migrateUp } = migrationDatabase('payout_debitmig', BEFORE);

  it('adds 16 zero debit rows of held per tenant and stablecoin, changes no other row, and checks each side', async () => {
    for (const tenant of ['ten_OLD_A', 'ten_OLD_B']) {
      await sql(`insert into tenants (id, name, environment, created_at) values (?, ?, 'sandbox', now())`, [tenant, tenant]);
      // Money on hold before the migration sits in held's credit rows; funding is negative by the deposit.
      await sql(
        `insert into ledger_accounts (id, tenant_id, currency, kind, slot, balance, updated_at)
         select 'ldg_' || md5(? || c || k || s), ?, c, k, s,
                case when k = 'available' and s = 0 then 5 when k = 'held' and s = 3 then 2 when k = 'funding' and s = 0 then -7 else 0 end, now()
           from unnest(array['USDC', 'USDT']) c,
                unnest(array['available', 'held', 'in_transit', 'funding', 'settled', 'refunded', 'refund_pending']) k, generate_series(0, 15) s`,
        [tenant, tenant],
      );
    }
    const before = await sql<{ id: string; balance: string }>('select id, balance::text from ledger_accounts order by id');
    await migrateUp();

    const debitRows = await sql<{ tenant_id: string; currency: string; slots: string; total: string }>(
      `select tenant_id, currency, string_agg(slot::text, ',' order by slot) as slots, sum(balance)::text as total from ledger_accounts
        where kind = 'held' and slot >= 16 group by tenant_id, currency order by tenant_id, currency`);
    const sixteenToThirtyOne = Array.from({ length: 16 }, (_, i) => String(16 + i)).join(',');
    expect(debitRows).toEqual(['ten_OLD_A', 'ten_OLD_B'].flatMap((tenant_id) => ['USDC', 'USDT'].map((currency) => (
      { tenant_id, currency, slots: sixteenToThirtyOne, total: '0.000000' }))));
    const after = await sql<{ id: string; balance: string }>(`select id, balance::text from ledger_accounts where not (kind = 'held' and slot >= 16) order by id`);
    expect(after).toEqual(before);

    const setBalance = (slot: number, balance: string) => sql(
      `update ledger_accounts set balance = ? where tenant_id = 'ten_OLD_A' and currency = 'USDC' and kind = 'held' and slot = ?`, [balance, slot]);
    await expect(setBalance(20, '-1')).resolves.toBeDefined();
    await expect(setBalance(20, '1')).rejects.toThrow(/ledger_accounts_non_negative_check/);
    await expect(setBalance(3, '-1')).rejects.toThrow(/ledger_accounts_non_negative_check/);
    await expect(sql(`update ledger_accounts set balance = -1 where tenant_id = 'ten_OLD_A' and currency = 'USDC' and kind = 'available' and slot = 1`))
      .rejects.toThrow(/ledger_accounts_non_negative_check/);
  });
});
