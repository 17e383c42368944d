import { Migration } from '@mikro-orm/migrations';

/**
 * Balance slots (docs/decisions.md § Ledger): each ledger account becomes 16 rows (slots 0-15),
 * its balance their sum, so one tenant's holds and moves stop serialising on one row. Existing rows
 * become slot 0 and keep their balances; the other slots start at zero (holds gather from slot 0
 * until deposits spread). A ledger transaction records the slot its payment's moves post in.
 */
export class Migration20261123194500 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "ledger_accounts" add column "slot" smallint not null default 0;`);
    this.addSql(`alter table "ledger_accounts" drop constraint "ledger_accounts_owner_unique";`);
    this.addSql(`alter table "ledger_accounts" add constraint "ledger_accounts_owner_unique" unique ("tenant_id", "currency", "kind", "slot");`);
    this.addSql(`insert into "ledger_accounts" ("id", "tenant_id", "currency", "kind", "slot", "balance", "updated_at")
      select 'ldg_' || upper(substr(md5(a.id || ':' || s), 1, 26)), a.tenant_id, a.currency, a.kind, s, 0, now()
        from "ledger_accounts" a cross join generate_series(1, 15) s where a.slot = 0;`);
    this.addSql(`alter table "ledger_transactions" add column "slot" smallint null;`);
  }

  override async down(): Promise<void> {
    // Only while no entry sits on a slot other than 0: folding them back would detach entries from their rows.
    this.addSql(`do $$ begin
      if exists (select 1 from "ledger_entries" e join "ledger_accounts" a on a.id = e.account_id where a.slot > 0) then
        raise exception 'ledger entries sit on balance slots other than 0; rolling back the slots would break the ledger';
      end if; end $$;`);
    this.addSql(`delete from "ledger_accounts" where "slot" > 0;`);
    this.addSql(`alter table "ledger_accounts" drop constraint "ledger_accounts_owner_unique";`);
    this.addSql(`alter table "ledger_accounts" add constraint "ledger_accounts_owner_unique" unique ("tenant_id", "currency", "kind");`);
    this.addSql(`alter table "ledger_accounts" drop column "slot";`);
    this.addSql(`alter table "ledger_transactions" drop column "slot";`);
  }

}
