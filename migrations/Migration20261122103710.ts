import { Migration } from '@mikro-orm/migrations';

/** Per-key request limits (docs/decisions.md § Rate limits and abuse limits): the shared counter table and a per-tenant override. */
export class Migration20261122103710 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "tenants" add column "rate_limit_per_minute" int null;`);
    // The table rate-limiter-flexible's PostgreSQL store expects (created here, not by the library at run time).
    this.addSql(`create table if not exists "rate_limits" ("key" varchar(255) primary key, "points" integer not null default 0, "expire" bigint);`);
    this.addSql(`create index "rate_limits_expire_idx" on "rate_limits" ("expire");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "rate_limits";`);
    this.addSql(`alter table "tenants" drop column "rate_limit_per_minute";`);
  }

}
