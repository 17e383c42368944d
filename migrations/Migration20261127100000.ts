import { Migration } from '@mikro-orm/migrations';

/**
 * Onchain deposits (docs/decisions.md § Onchain deposits). `deposits` becomes the register of
 * every transfer the chain watcher detects as well as the operators' corrections: it gains the
 * transfer's index in its transaction, a status (`detected`, `credited`, `dropped`), where it came
 * from, the token, sender, our address, block or slot and its hash, the remainder units below the
 * ledger's 6 places and the credit and drop times; its unique key becomes (blockchain, tx_hash,
 * transfer_index). Existing rows are corrections already credited: index 0, status `credited`,
 * credited when recorded. The existing columns keep their names.
 * New tables: `deposit_addresses` (with one index sequence per chain, never reused),
 * `chain_watchers` (cursor, heights and lease per chain) and `deposit_findings`.
 * `ledger_transactions.external_ref` widens to hold `<chain>:<signature>:<index>`; the two
 * deposit views are recreated around that change, `deposit_anomalies` now naming the index-0
 * deposit as a legacy hash's first credit.
 */
export class Migration20261127100000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "chain_watchers" ("blockchain" varchar(10) not null, "cursor" text null, "scanned_to" bigint null, "head" bigint not null default 0, "finalized" bigint not null default 0, "heights_at" timestamptz null, "caught_up_at" timestamptz null, "lease_holder" varchar(100) null, "lease_until" timestamptz null, "updated_at" timestamptz not null, constraint "chain_watchers_pkey" primary key ("blockchain"));`);

    this.addSql(`create table "deposit_addresses" ("blockchain" varchar(10) not null, "derivation_index" int not null, "tenant_id" varchar(40) not null, "key_id" varchar(120) not null, "address" varchar(64) not null, "address_key" varchar(64) not null, "created_at" timestamptz not null, constraint "deposit_addresses_pkey" primary key ("blockchain", "derivation_index"), constraint deposit_addresses_index_check check (derivation_index >= 0));`);
    this.addSql(`create index "deposit_addresses_chain_key_idx" on "deposit_addresses" ("blockchain", "key_id");`);
    this.addSql(`alter table "deposit_addresses" add constraint "deposit_addresses_tenant_chain_key_unique" unique ("tenant_id", "blockchain", "key_id");`);
    this.addSql(`alter table "deposit_addresses" add constraint "deposit_addresses_address_unique" unique ("blockchain", "address_key");`);
    // One derivation index sequence per chain: a value drawn is never drawn again, committed or not.
    this.addSql(`create sequence "deposit_address_index_bsc" minvalue 0 start 0;`);
    this.addSql(`create sequence "deposit_address_index_solana" minvalue 0 start 0;`);

    this.addSql(`create table "deposit_findings" ("id" uuid not null, "kind" varchar(20) not null, "tenant_id" varchar(40) not null, "blockchain" varchar(10) not null, "tx_hash" varchar(90) not null, "transfer_index" int not null, "token" varchar(64) not null, "sender" varchar(64) not null, "address" varchar(64) not null, "units" numeric(78,0) not null, "decimals" smallint not null, "height" bigint not null, "block_hash" varchar(90) not null, "created_at" timestamptz not null, constraint "deposit_findings_pkey" primary key ("id"), constraint deposit_findings_kind_check check (kind in ('foreign_token', 'dust', 'oversized')));`);
    this.addSql(`create index "deposit_findings_created_idx" on "deposit_findings" ("created_at", "id");`);
    this.addSql(`alter table "deposit_findings" add constraint "deposit_findings_key_unique" unique ("blockchain", "tx_hash", "transfer_index");`);

    this.addSql(`alter table "deposits" drop constraint "deposits_chain_hash_unique";`);
    this.addSql(`alter table "deposits" add column "transfer_index" int not null default 0, add column "remainder_units" numeric(78,0) not null default 0, add column "token" varchar(64) null, add column "sender" varchar(64) null, add column "address" varchar(64) null, add column "height" bigint null, add column "block_hash" varchar(90) null, add column "status" varchar(10) not null default 'credited', add column "source" varchar(10) not null default 'operator', add column "credited_at" timestamptz null, add column "dropped_at" timestamptz null;`);
    this.addSql(`update "deposits" set "credited_at" = "created_at";`);
    this.addSql(`alter table "deposits" alter column "ledger_transaction_id" drop not null;`);
    this.addSql(`create index "deposits_detected_idx" on "deposits" ("blockchain", "height", "id") where "status" = 'detected';`);
    this.addSql(`alter table "deposits" add constraint "deposits_chain_hash_index_unique" unique ("blockchain", "tx_hash", "transfer_index");`);
    this.addSql(`alter table "deposits" add constraint deposits_status_check check(status in ('detected', 'credited', 'dropped'));`);
    this.addSql(`alter table "deposits" add constraint deposits_source_check check(source in ('chain', 'operator'));`);
    this.addSql(`alter table "deposits" add constraint deposits_transfer_index_check check(transfer_index >= 0);`);
    this.addSql(`alter table "deposits" add constraint deposits_remainder_check check(remainder_units >= 0);`);
    this.addSql(`alter table "deposits" add constraint deposits_credited_check check((status = 'credited') = (ledger_transaction_id is not null and credited_at is not null));`);
    this.addSql(`alter table "deposits" add constraint deposits_dropped_check check((status = 'dropped') = (dropped_at is not null));`);
    this.addSql(`alter table "deposits" add constraint deposits_chain_coordinates_check check(source = 'operator' or (token is not null and sender is not null and address is not null and height is not null and block_hash is not null));`);

    this.addSql(`drop view "deposit_anomalies";`);
    this.addSql(`drop view "deposit_ledger_claims";`);
    this.addSql(`alter table "ledger_transactions" alter column "external_ref" type varchar(120);`);
    this.addSql(CLAIMS_VIEW);
    this.addSql(anomaliesView('and first.transfer_index = 0'));
  }

  override async down(): Promise<void> {
    this.addSql(`drop view "deposit_anomalies";`);
    this.addSql(`drop view "deposit_ledger_claims";`);
    // Chain deposits and references longer than the old column cannot go back: the down migration stops on them.
    this.addSql(`alter table "ledger_transactions" alter column "external_ref" type varchar(100);`);
    this.addSql(CLAIMS_VIEW);
    this.addSql(anomaliesView(''));

    this.addSql(`delete from "deposits" where "status" <> 'credited';`);
    this.addSql(`drop index "deposits_detected_idx";`);
    this.addSql(`alter table "deposits" drop constraint "deposits_chain_hash_index_unique";`);
    for (const check of ['status', 'source', 'transfer_index', 'remainder', 'credited', 'dropped', 'chain_coordinates']) {
      this.addSql(`alter table "deposits" drop constraint deposits_${check}_check;`);
    }
    this.addSql(`alter table "deposits" drop column "transfer_index", drop column "remainder_units", drop column "token", drop column "sender", drop column "address", drop column "height", drop column "block_hash", drop column "status", drop column "source", drop column "credited_at", drop column "dropped_at";`);
    this.addSql(`alter table "deposits" alter column "ledger_transaction_id" set not null;`);
    this.addSql(`alter table "deposits" add constraint "deposits_chain_hash_unique" unique ("blockchain", "tx_hash");`);

    this.addSql(`drop table if exists "deposit_findings" cascade;`);
    this.addSql(`drop sequence if exists "deposit_address_index_solana";`);
    this.addSql(`drop sequence if exists "deposit_address_index_bsc";`);
    this.addSql(`drop table if exists "deposit_addresses" cascade;`);
    this.addSql(`drop table if exists "chain_watchers" cascade;`);
  }

}

/** The deposit ledger claims view as Migration20261123163205 made it. */
const CLAIMS_VIEW = `create view "deposit_ledger_claims" as
      select t.id as ledger_transaction_id, t.tenant_id, t.currency, t.amount, t.external_ref, t.created_at,
             split_part(t.external_ref, ':', 1) as blockchain,
             deposit_canonical_hash(split_part(t.external_ref, ':', 1), substr(t.external_ref, strpos(t.external_ref, ':') + 1)) as tx_hash
        from ledger_transactions t
       where t.kind = 'deposit';`;

/** The anomalies view as Migration20261123163205 made it, with `firstCondition` narrowing the first credit. */
function anomaliesView(firstCondition: string): string {
  return `create view "deposit_anomalies" as
      select c.ledger_transaction_id, c.tenant_id, c.currency, c.amount, c.external_ref, c.created_at,
             case when c.tx_hash is null then 'malformed_hash' else 'duplicate' end as problem,
             first.tenant_id as first_credit_tenant_id, first.ledger_transaction_id as first_credit_ledger_transaction_id
        from deposit_ledger_claims c
        left join deposits mine on mine.ledger_transaction_id = c.ledger_transaction_id
        left join deposits first on first.blockchain = c.blockchain and first.tx_hash = c.tx_hash ${firstCondition}
       where mine.id is null;`;
}
