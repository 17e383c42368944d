import { Migration } from '@mikro-orm/migrations';

/**
 * Operators' pinned rates (docs/decisions.md § FX quotes: live rates): one row per pin, never
 * updated, the audit record of who pinned which mid rate on which pair, why, and until when. Every
 * replica reads the unexpired ones at each rate refresh.
 */
export class Migration20261127120000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "rate_pins" ("id" varchar(40) not null, "fiat" varchar(3) not null, "stablecoin" varchar(4) not null, "rate" numeric(20,8) not null, "reason" varchar(200) not null, "created_by" varchar(40) not null, "created_at" timestamptz not null, "expires_at" timestamptz not null, constraint "rate_pins_pkey" primary key ("id"), constraint rate_pins_rate_check check (rate > 0), constraint rate_pins_expiry_check check (expires_at > created_at));`);
    this.addSql(`create index "rate_pins_expires_idx" on "rate_pins" ("expires_at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "rate_pins";`);
  }
}
