import { Migration } from '@mikro-orm/migrations';

/**
 * The refunds worker's hot wallets (docs/decisions.md § Refunds; docs/operations.md § Refunds):
 * one row per (chain, wallet), holding the lease a replica takes to be that wallet's one sender
 * (judged by PostgreSQL's clock, as `chain_watchers`), and the wallet's standing shortfall finding
 * (what it lacks, for which refund, since when), all set or all null.
 * A new table rather than `chain_watchers`: that one is keyed by chain alone and carries a
 * watcher's cursor and heights; a chain may have several hot wallets.
 */
export class Migration20261127163000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "refund_senders" (
      "blockchain" varchar(10) not null, "wallet" varchar(64) not null,
      "lease_holder" varchar(100) null, "lease_until" timestamptz null,
      "shortfall" varchar(10) null, "shortfall_refund_id" varchar(40) null, "shortfall_currency" varchar(10) null,
      "shortfall_amount" numeric(38,6) null, "shortfall_since" timestamptz null,
      "updated_at" timestamptz not null,
      constraint "refund_senders_pkey" primary key ("blockchain", "wallet"),
      constraint refund_senders_shortfall_check check (shortfall in ('token', 'gas')),
      constraint refund_senders_finding_check check (
        (shortfall is null) = (shortfall_refund_id is null) and (shortfall is null) = (shortfall_currency is null)
        and (shortfall is null) = (shortfall_amount is null) and (shortfall is null) = (shortfall_since is null)));`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "refund_senders";`);
  }

}
