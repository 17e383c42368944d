import { Migration } from '@mikro-orm/migrations';

export class Migration20261122092024 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "api_keys" ("id" varchar(40) not null, "tenant_id" varchar(40) null, "scope" varchar(10) not null, "lookup" varchar(12) not null, "secret_hash" varchar(64) not null, "label" varchar(200) not null, "created_at" timestamptz not null, "revoked_at" timestamptz null, constraint "api_keys_pkey" primary key ("id"));`);
    this.addSql(`create index "api_keys_tenant_id_index" on "api_keys" ("tenant_id");`);
    this.addSql(`alter table "api_keys" add constraint "api_keys_lookup_unique" unique ("lookup");`);

    this.addSql(`create table "idempotency_keys" ("tenant_id" varchar(40) not null, "key" varchar(64) not null, "operation" varchar(40) not null, "fingerprint" text not null, "response_status" int not null, "response_body" json not null, "resource_id" varchar(40) not null, "created_at" timestamptz not null, "expires_at" timestamptz not null, constraint "idempotency_keys_pkey" primary key ("tenant_id", "key"));`);
    this.addSql(`create index "idempotency_keys_expires_at_index" on "idempotency_keys" ("expires_at");`);

    this.addSql(`create table "ledger_accounts" ("id" varchar(40) not null, "tenant_id" varchar(40) not null, "currency" varchar(4) not null, "kind" varchar(12) not null, "balance" numeric(38,6) not null default 0, "updated_at" timestamptz not null, constraint "ledger_accounts_pkey" primary key ("id"), constraint ledger_accounts_non_negative_check check (kind = 'funding' or balance >= 0));`);
    this.addSql(`alter table "ledger_accounts" add constraint "ledger_accounts_owner_unique" unique ("tenant_id", "currency", "kind");`);

    this.addSql(`create table "ledger_entries" ("id" bigserial primary key, "transaction_id" varchar(40) not null, "account_id" varchar(40) not null, "amount" numeric(38,6) not null, "created_at" timestamptz not null);`);
    this.addSql(`create index "ledger_entries_transaction_idx" on "ledger_entries" ("transaction_id");`);
    this.addSql(`create index "ledger_entries_account_idx" on "ledger_entries" ("account_id");`);

    this.addSql(`create table "ledger_transactions" ("id" varchar(40) not null, "tenant_id" varchar(40) not null, "currency" varchar(4) not null, "kind" varchar(12) not null, "amount" numeric(38,6) not null, "from_kind" varchar(12) not null, "to_kind" varchar(12) not null, "payment_id" varchar(40) null, "external_ref" varchar(100) null, "created_at" timestamptz not null, constraint "ledger_transactions_pkey" primary key ("id"), constraint ledger_transactions_amount_positive_check check (amount > 0));`);
    this.addSql(`create index "ledger_transactions_tenant_created_idx" on "ledger_transactions" ("tenant_id", "created_at", "id");`);
    this.addSql(`alter table "ledger_transactions" add constraint "ledger_transactions_payment_kind_unique" unique ("payment_id", "kind");`);
    this.addSql(`alter table "ledger_transactions" add constraint "ledger_transactions_external_ref_unique" unique ("tenant_id", "external_ref");`);

    this.addSql(`create table "outbox_events" ("id" uuid not null, "tenant_id" varchar(40) not null, "type" varchar(40) not null, "entity_id" varchar(40) not null, "payload" json not null, "created_at" timestamptz not null, constraint "outbox_events_pkey" primary key ("id"));`);
    this.addSql(`create index "outbox_events_entity_idx" on "outbox_events" ("entity_id", "created_at");`);

    this.addSql(`create table "payments" ("id" varchar(40) not null, "tenant_id" varchar(40) not null, "status" varchar(20) not null, "payment_method" varchar(10) not null, "source_currency" varchar(4) not null, "destination_currency" varchar(3) not null, "country" varchar(2) not null, "blockchain" varchar(10) not null, "amount_stablecoin" numeric(38,6) not null, "fiat_amount" numeric(38,6) not null, "exchange_rate" numeric(38,6) not null, "payout_fee" numeric(38,6) not null, "account_name" varchar(140) not null, "account_number" varchar(34) not null, "payment_code" varchar(20) not null, "business_number" varchar(6) null, "reference" varchar(128) null, "refund_address" varchar(64) not null, "optional_issuer_fee" varchar(3) not null, "quote_id" varchar(40) null, "provider_ref" varchar(100) null, "failure_reason" text null, "next_action_at" timestamptz null, "attempts" int not null default 0, "accepted_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "payments_pkey" primary key ("id"), constraint payments_status_check check (status in ('initiated', 'provider_accepted', 'succeeded', 'failed', 'refunded')), constraint payments_amounts_positive_check check (amount_stablecoin > 0 and fiat_amount > 0 and payout_fee >= 0));`);
    this.addSql(`create index "payments_due_idx" on "payments" ("next_action_at") where "next_action_at" is not null;`);
    this.addSql(`create index "payments_tenant_created_idx" on "payments" ("tenant_id", "created_at");`);
    this.addSql(`alter table "payments" add constraint "payments_tenant_reference_unique" unique ("tenant_id", "reference");`);

    this.addSql(`create table "quotes" ("id" varchar(40) not null, "tenant_id" varchar(40) not null, "fiat_currency" varchar(3) not null, "stablecoin" varchar(4) not null, "fiat_amount" numeric(38,6) not null, "exchange_rate" numeric(38,6) not null, "payout_fee" numeric(38,6) not null, "converted_amount" numeric(38,6) not null, "payment_method" varchar(10) not null, "country" varchar(2) null, "blockchain" varchar(10) not null, "optional_issuer_fee" varchar(3) not null, "expires_at" timestamptz not null, "created_at" timestamptz not null, constraint "quotes_pkey" primary key ("id"));`);
    this.addSql(`create index "quotes_tenant_id_index" on "quotes" ("tenant_id");`);
    this.addSql(`create index "quotes_expires_at_index" on "quotes" ("expires_at");`);

    this.addSql(`create table "tenants" ("id" varchar(40) not null, "name" varchar(200) not null, "environment" varchar(10) not null, "created_at" timestamptz not null, constraint "tenants_pkey" primary key ("id"));`);

    this.addSql(`create table "webhook_deliveries" ("id" uuid not null, "tenant_id" varchar(40) not null, "event_id" uuid not null, "registration_id" uuid not null, "event_type" varchar(40) not null, "entity_id" varchar(40) not null, "url" text not null, "status" varchar(10) not null, "attempt" int not null default 0, "last_error" text null, "next_retry_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "webhook_deliveries_pkey" primary key ("id"), constraint webhook_deliveries_status_check check (status in ('pending', 'delivered', 'failed')));`);
    this.addSql(`create index "webhook_deliveries_registration_id_index" on "webhook_deliveries" ("registration_id");`);
    this.addSql(`create index "webhook_deliveries_due_idx" on "webhook_deliveries" ("next_retry_at") where "status" = 'pending';`);
    this.addSql(`create index "webhook_deliveries_log_idx" on "webhook_deliveries" ("tenant_id", "created_at", "id");`);

    this.addSql(`create table "webhook_registrations" ("id" uuid not null, "tenant_id" varchar(40) not null, "url" text not null, "events" jsonb not null, "secret_ciphertext" text not null, "status" varchar(10) not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "deleted_at" timestamptz null, constraint "webhook_registrations_pkey" primary key ("id"));`);
    this.addSql(`create index "webhook_registrations_tenant_idx" on "webhook_registrations" ("tenant_id", "created_at");`);
    // Double-entry invariant in the database (docs/decisions.md § Ledger): at commit, every ledger transaction's
    // entries sum to zero. Deferred, so both legs can be inserted before the check runs.
    this.addSql(`create function ledger_transaction_balanced() returns trigger language plpgsql as $$
      begin
        if (select coalesce(sum(amount), 0) from ledger_entries where transaction_id = new.transaction_id) <> 0 then
          raise exception 'ledger transaction % does not balance', new.transaction_id using errcode = '23514';
        end if;
        return null;
      end $$;`);
    this.addSql(`create constraint trigger ledger_entries_balanced after insert or update on ledger_entries
      deferrable initially deferred for each row execute function ledger_transaction_balanced();`);
    // Entries are history: never rewritten or removed.
    this.addSql(`create function ledger_entries_append_only() returns trigger language plpgsql as $$
      begin raise exception 'ledger entries are append-only'; end $$;`);
    this.addSql(`create trigger ledger_entries_no_change before update or delete on ledger_entries
      for each row execute function ledger_entries_append_only();`);
  }

}
