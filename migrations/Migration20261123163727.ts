import { Migration } from '@mikro-orm/migrations';

/**
 * Request and failed-authentication counts live in memory or in Redis now (docs/decisions.md §
 * Rate limits and abuse limits): PostgreSQL no longer takes a write per request.
 */
export class Migration20261123163727 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`drop table if exists "rate_limits" cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`create table "rate_limits" ("key" varchar(255) not null, "points" int4 not null default 0, "expire" int8 null, constraint "rate_limits_pkey" primary key ("key"));`);
    this.addSql(`create index "rate_limits_expire_idx" on "rate_limits" ("expire");`);
  }

}
