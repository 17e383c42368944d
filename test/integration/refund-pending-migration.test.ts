import { migrationDatabase } from '../support/migration-database';

/** The last migration before onchain refunds. */
const BEFORE = 'Migration20261123195746';
/** The onchain refunds migration (later ones add rows of their own). */
const REFUND_PENDING = 'Migration20261123200234';

/**
 * The onchain refunds migration on a database whose tenants already have their ledger accounts
 * (docs/decisions.md § Ledger): each gets a `refund_pending` account in every balance slot and
 * stablecoin it has, at zero, and nothing else changes.
 */
describe('refund_pending accounts for existing tenants', () => {
  const { sql, migrateUp } = migrationDatabase('payout_refmig', BEFORE);

  it('adds one zero refund_pending row per tenant, stablecoin and slot, and leaves the other rows as they were', async () => {
    for (const tenant of ['ten_OLD_A', 'ten_OLD_B']) {
      await sql(`insert into tenants (id, name, environment, created_at) values (?, ?, 'live', now())`, [tenant, tenant]);
      await sql(
        `insert into ledger_accounts (id, tenant_id, currency, kind, slot, balance, updated_at)
         select 'ldg_' || md5(? || c || k || s), ?, c, k, s, case when k = 'available' and s = 0 then 5 else 0 end, now()
           from unnest(array['USDC', 'USDT']) c, unnest(array['available', 'held', 'in_transit', 'funding', 'settled', 'refunded']) k, generate_series(0, 15) s`,
        [tenant, tenant],
      );
    }
    const before = await sql<{ n: number; total: string }>(`select count(*)::int as n, sum(balance)::text as total from ledger_accounts`);
    await migrateUp(REFUND_PENDING);
    const added = await sql<{ tenant_id: string; currency: string; slots: number; total: string }>(
      `select tenant_id, currency, count(distinct slot)::int as slots, sum(balance)::text as total from ledger_accounts
        where kind = 'refund_pending' group by tenant_id, currency order by tenant_id, currency`);
    expect(added).toEqual(['ten_OLD_A', 'ten_OLD_B'].flatMap((tenant_id) => ['USDC', 'USDT'].map((currency) => ({ tenant_id, currency, slots: 16, total: '0.000000' }))));
    const others = await sql<{ n: number; total: string }>(`select count(*)::int as n, sum(balance)::text as total from ledger_accounts where kind <> 'refund_pending'`);
    expect(others).toEqual(before);
  });
});
