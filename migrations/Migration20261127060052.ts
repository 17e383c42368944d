import { Migration } from '@mikro-orm/migrations';

/**
 * Routing on measured success (docs/decisions.md § Payout providers: routing on measured success):
 * per (corridor, provider, time bucket) counters of provider-attributable outcomes and submission
 * latencies, upserted on each outcome and summed over the window; and each payment's latest
 * routing decision with its inputs, for operators.
 */
export class Migration20261127060052 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "payout_provider_outcomes" (
      "country" varchar(2) not null, "payment_method" varchar(10) not null, "payment_code" varchar(40) not null,
      "provider" varchar(32) not null, "bucket_start" timestamptz not null,
      "successes" int not null default 0, "failures" int not null default 0,
      "latency_ms_sum" bigint not null default 0, "latency_samples" int not null default 0,
      constraint "payout_provider_outcomes_pkey" primary key ("country", "payment_method", "payment_code", "provider", "bucket_start"));`);
    this.addSql('create index "payout_provider_outcomes_bucket_idx" on "payout_provider_outcomes" ("bucket_start");');
    this.addSql(`create table "payment_routing_decisions" (
      "payment_id" varchar(40) not null, "decided_at" timestamptz not null, "decision" jsonb not null,
      constraint "payment_routing_decisions_pkey" primary key ("payment_id"),
      constraint "payment_routing_decisions_payment_fkey" foreign key ("payment_id") references "payments" ("id") on delete cascade);`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists "payment_routing_decisions";');
    this.addSql('drop table if exists "payout_provider_outcomes";');
  }

}
