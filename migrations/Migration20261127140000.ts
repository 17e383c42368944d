import { Migration } from '@mikro-orm/migrations';

/**
 * Onchain refunds sent from a hot wallet (docs/decisions.md § Refunds). `onchain_refunds` gains the
 * statuses `broadcast`, `confirmed` and `failed`; `tx_hash` is set from `broadcast` on, `sent_at`
 * once `confirmed` or `sent`. Existing rows (`pending`, `sent`) satisfy the new checks unchanged.
 * New table `onchain_refund_attempts`: one row per nonce of a hot wallet (BSC) or per blockhash
 * (Solana), with every hash it signed, the raw signed transaction, status and attempts. PostgreSQL
 * keeps the rules: one attempt per (chain, wallet, nonce); a hash in one attempt only (the current
 * one, `tx_hash`); one open attempt (`signed` or `broadcast`) per hot wallet and per refund.
 */
export class Migration20261127140000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "onchain_refunds" drop constraint "onchain_refunds_status_check", drop constraint "onchain_refunds_sent_check";`);
    this.addSql(`alter table "onchain_refunds" add constraint onchain_refunds_status_check check (status in ('pending', 'broadcast', 'confirmed', 'failed', 'sent')),
      add constraint onchain_refunds_tx_hash_check check ((status in ('broadcast', 'confirmed', 'sent')) = (tx_hash is not null) or status = 'failed'),
      add constraint onchain_refunds_sent_check check ((status in ('confirmed', 'sent')) = (sent_at is not null));`);

    this.addSql(`create table "onchain_refund_attempts" (
      "id" varchar(40) not null, "refund_id" varchar(40) not null references "onchain_refunds" ("id"), "blockchain" varchar(10) not null,
      "wallet" varchar(64) not null, "tx_hash" varchar(90) not null, "tx_hashes" text[] not null, "raw_transaction" text not null,
      "nonce" numeric(20,0) null, "blockhash" varchar(64) null, "last_valid_height" bigint null, "status" varchar(10) not null,
      "attempts" int not null, "landed_hash" varchar(90) null, "landed_height" bigint null, "created_at" timestamptz not null,
      "signed_at" timestamptz not null,
      constraint "onchain_refund_attempts_pkey" primary key ("id"),
      constraint onchain_refund_attempts_status_check check (status in ('signed', 'broadcast', 'landed', 'reverted', 'dropped')),
      constraint onchain_refund_attempts_attempts_check check (attempts >= 1 and attempts = cardinality(tx_hashes)),
      constraint onchain_refund_attempts_current_check check (tx_hashes[cardinality(tx_hashes)] = tx_hash),
      constraint onchain_refund_attempts_scheme_check check ((nonce is null) <> (blockhash is null) and (blockhash is null) = (last_valid_height is null)),
      constraint onchain_refund_attempts_landed_check check ((status in ('landed', 'reverted')) = (landed_hash is not null and landed_height is not null)));`);
    this.addSql(`alter table "onchain_refund_attempts" add constraint "onchain_refund_attempts_nonce_unique" unique ("blockchain", "wallet", "nonce");`);
    this.addSql(`alter table "onchain_refund_attempts" add constraint "onchain_refund_attempts_hash_unique" unique ("blockchain", "tx_hash");`);
    this.addSql(`create unique index "onchain_refund_attempts_open_wallet_unique" on "onchain_refund_attempts" ("blockchain", "wallet") where "status" in ('signed', 'broadcast');`);
    this.addSql(`create unique index "onchain_refund_attempts_open_refund_unique" on "onchain_refund_attempts" ("refund_id") where "status" in ('signed', 'broadcast');`);
    this.addSql(`create index "onchain_refund_attempts_refund_idx" on "onchain_refund_attempts" ("refund_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "onchain_refund_attempts";`);
    this.addSql(`alter table "onchain_refunds" drop constraint "onchain_refunds_status_check", drop constraint "onchain_refunds_sent_check", drop constraint "onchain_refunds_tx_hash_check";`);
    this.addSql(`alter table "onchain_refunds" add constraint onchain_refunds_status_check check (status in ('pending', 'sent')),
      add constraint onchain_refunds_sent_check check ((status = 'sent') = (tx_hash is not null and sent_at is not null));`);
  }

}
