import { Migration } from '@mikro-orm/migrations';

/**
 * Table `kyc_checks` (docs/providers.md § Smile ID): each submission of a customer to a live KYC
 * provider, one row per customer, provider and attempt (the key keeps two processes from submitting
 * one attempt twice); the provider's final answer sealed at rest.
 */
export class Migration20261127180000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "kyc_checks" (
      "customer_id" varchar(40) not null, "provider" varchar(32) not null, "attempt" int not null,
      "job_ref" varchar(100) not null, "state" varchar(12) not null, "result_code" varchar(10) null,
      "raw_answer_sealed" text null, "submitted_at" timestamptz not null, "completed_at" timestamptz null,
      constraint "kyc_checks_pkey" primary key ("customer_id", "provider", "attempt"),
      constraint kyc_checks_state_check check (state in ('submitting', 'submitted', 'completed')));`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "kyc_checks";`);
  }

}
