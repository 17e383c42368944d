import { Migration } from '@mikro-orm/migrations';

/** Table `provider_events`: verified provider callbacks kept raw (sealed) for audit (docs/decisions.md § Payout providers: callbacks). */
export class Migration20261123195746 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "provider_events" ("id" uuid not null, "provider" varchar(32) not null, "payment_id" varchar(40) null, "provider_event_id" varchar(200) null, "outcome" varchar(20) null, "verdict" varchar(40) not null, "raw_body_sealed" text not null, "received_at" timestamptz not null, constraint "provider_events_pkey" primary key ("id"));`);
    this.addSql(`create index "provider_events_payment_idx" on "provider_events" ("payment_id", "received_at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "provider_events" cascade;`);
  }

}
