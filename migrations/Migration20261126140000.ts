import { Migration } from '@mikro-orm/migrations';

/**
 * Debit rows of `held` (docs/decisions.md § Ledger: debit rows): the account is kept as a T-account,
 * its credits (a money-out's hold, on the request path) in slots 0-15 as before and its debits (the
 * payout worker's send or release) in rows of their own, slots 16-31, so the two never lock the same
 * row. Every tenant and stablecoin that has `held` rows gets its 16 debit rows at zero; nothing
 * else changes. The balance check now keeps credit rows at or above zero and debit rows at or
 * below it (`funding` stays free, as before).
 */
export class Migration20261126140000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`insert into "ledger_accounts" ("id", "tenant_id", "currency", "kind", "slot", "balance", "updated_at")
      select 'ldg_' || upper(substr(md5(a.id || ':debit'), 1, 26)), a.tenant_id, a.currency, a.kind, a.slot + 16, 0, now()
        from "ledger_accounts" a where a.kind = 'held' and a.slot < 16
      on conflict ("tenant_id", "currency", "kind", "slot") do nothing;`);
    this.addSql(`alter table "ledger_accounts" drop constraint "ledger_accounts_non_negative_check";`);
    this.addSql(`alter table "ledger_accounts" add constraint "ledger_accounts_non_negative_check" check (case when kind = 'funding' then true when kind = 'held' and slot >= 16 then balance <= 0 else balance >= 0 end);`);
  }

  override async down(): Promise<void> {
    // Only while no entry sits on a debit row: folding them back would detach entries from their rows.
    this.addSql(`do $$ begin
      if exists (select 1 from "ledger_entries" e join "ledger_accounts" a on a.id = e.account_id where a.kind = 'held' and a.slot >= 16) then
        raise exception 'ledger entries sit on debit rows of held; rolling them back would break the ledger';
      end if; end $$;`);
    this.addSql(`delete from "ledger_accounts" where "kind" = 'held' and "slot" >= 16;`);
    this.addSql(`alter table "ledger_accounts" drop constraint "ledger_accounts_non_negative_check";`);
    this.addSql(`alter table "ledger_accounts" add constraint "ledger_accounts_non_negative_check" check (kind = 'funding' or balance >= 0);`);
  }

}
