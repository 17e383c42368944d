import { Migration } from '@mikro-orm/migrations';

/**
 * Sanctions screening (docs/decisions.md § Screening): the loaded lists (one current row per source,
 * with its version and date, so every replica loads the same), the compliance reviews of held
 * payments (the audit record of each decision), and the failure code `compliance_rejected`.
 */
export class Migration20261127200000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "screening_lists" (
      "source" varchar(20) not null, "version" varchar(40) not null, "published_at" timestamptz not null,
      "loaded_at" timestamptz not null, "entry_count" int not null, "entries" jsonb not null,
      constraint "screening_lists_pkey" primary key ("source"),
      constraint screening_lists_source_check check (source in ('ofac-sdn', 'un-consolidated')));`);
    this.addSql(`create table "compliance_reviews" (
      "payment_id" varchar(40) not null, "tenant_id" varchar(40) not null, "status" varchar(10) not null,
      "hits" jsonb not null, "created_at" timestamptz not null, "decided_by" varchar(64) null,
      "decided_at" timestamptz null, "reason" varchar(500) null,
      constraint "compliance_reviews_pkey" primary key ("payment_id"),
      constraint compliance_reviews_status_check check (status in ('pending', 'cleared', 'rejected')),
      constraint compliance_reviews_decided_check check ((status = 'pending') = (decided_by is null)));`);
    this.addSql('create index "compliance_reviews_status_idx" on "compliance_reviews" ("status", "created_at");');
    this.addSql('alter table "payments" drop constraint "payments_failure_code_check";');
    this.addSql(`alter table "payments" add constraint "payments_failure_code_check" check ((failure_code is null or failure_code in ('recipient_account_invalid', 'limit_exceeded', 'insufficient_provider_balance', 'declined', 'expired', 'reversed', 'unsupported_by_provider', 'provider_error', 'unknown', 'compliance_rejected')) and ((status in ('failed', 'refunded')) = (failure_code is not null)));`);
  }

  override async down(): Promise<void> {
    this.addSql('alter table "payments" drop constraint "payments_failure_code_check";');
    this.addSql(`alter table "payments" add constraint "payments_failure_code_check" check ((failure_code is null or failure_code in ('recipient_account_invalid', 'limit_exceeded', 'insufficient_provider_balance', 'declined', 'expired', 'reversed', 'unsupported_by_provider', 'provider_error', 'unknown')) and ((status in ('failed', 'refunded')) = (failure_code is not null)));`);
    this.addSql('drop table if exists "compliance_reviews";');
    this.addSql('drop table if exists "screening_lists";');
  }

}
