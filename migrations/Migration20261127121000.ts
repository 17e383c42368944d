import { Migration } from '@mikro-orm/migrations';

/**
 * Operators' spread changes (docs/decisions.md § FX quotes: live rates): one row per change, never
 * updated, the audit record of who set which spread on which corridor (`<country>:<method>`,
 * `*:<method>` or `*:*`), why and when; the newest per corridor is in force.
 */
export class Migration20261127121000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "rate_spreads" ("id" varchar(40) not null, "corridor" varchar(20) not null, "percent" numeric(6,4) not null, "reason" varchar(200) not null, "created_by" varchar(40) not null, "created_at" timestamptz not null, constraint "rate_spreads_pkey" primary key ("id"), constraint rate_spreads_percent_check check (percent >= 0 and percent <= 10));`);
    this.addSql(`create index "rate_spreads_corridor_idx" on "rate_spreads" ("corridor", "created_at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "rate_spreads";`);
  }
}
