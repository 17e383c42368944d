import { Migration } from '@mikro-orm/migrations';

/**
 * Onchain refunds of live payments (docs/decisions.md § Ledger): the `onchain_refunds` table, the
 * ledger's `refund_pending` account (kind names up to 16 characters) for every existing tenant,
 * stablecoin and balance slot, at zero.
 */
export class Migration20261123200234 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "onchain_refunds" ("id" varchar(40) not null, "payment_id" varchar(40) not null, "tenant_id" varchar(40) not null, "amount" numeric(38,6) not null, "currency" varchar(4) not null, "blockchain" varchar(10) not null, "refund_address" varchar(64) not null, "status" varchar(10) not null, "tx_hash" varchar(90) null, "created_at" timestamptz not null, "sent_at" timestamptz null, constraint "onchain_refunds_pkey" primary key ("id"), constraint onchain_refunds_status_check check (status in ('pending', 'sent')), constraint onchain_refunds_sent_check check ((status = 'sent') = (tx_hash is not null and sent_at is not null)), constraint onchain_refunds_amount_positive_check check (amount > 0));`);
    this.addSql(`create index "onchain_refunds_pending_idx" on "onchain_refunds" ("created_at") where "status" = 'pending';`);
    this.addSql(`alter table "onchain_refunds" add constraint "onchain_refunds_payment_unique" unique ("payment_id");`);

    this.addSql(`alter table "ledger_accounts" alter column "kind" type varchar(16) using ("kind"::varchar(16));`);
    this.addSql(`alter table "ledger_transactions" alter column "from_kind" type varchar(16) using ("from_kind"::varchar(16));`);
    this.addSql(`alter table "ledger_transactions" alter column "to_kind" type varchar(16) using ("to_kind"::varchar(16));`);
    // One refund_pending account per tenant, stablecoin and balance slot the tenant already has
    // accounts in; new tenants get theirs with the others. The id is derived, not a ULID: unique, and never parsed.
    this.addSql(`insert into "ledger_accounts" ("id", "tenant_id", "currency", "kind", "slot", "balance", "updated_at")
      select distinct 'ldg_' || upper(substr(md5(tenant_id || ':' || currency || ':refund_pending:' || slot), 1, 26)), tenant_id, currency, 'refund_pending', slot, 0, now()
        from "ledger_accounts"
       on conflict do nothing;`);
  }

  override async down(): Promise<void> {
    this.addSql(`delete from "ledger_accounts" where "kind" = 'refund_pending' and "balance" = 0;`);
    this.addSql(`drop table if exists "onchain_refunds" cascade;`);
  }

}
