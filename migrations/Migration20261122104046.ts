import { Migration } from '@mikro-orm/migrations';

/** Customers and their KYC status (docs/decisions.md § Customers and KYC). */
export class Migration20261122104046 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "customers" ("id" varchar(40) not null, "tenant_id" varchar(40) not null, "external_id" varchar(100) not null, "first_name" varchar(100) not null, "last_name" varchar(100) not null, "country" varchar(2) not null, "date_of_birth" varchar(10) not null, "id_type" varchar(20) not null, "id_number" varchar(32) not null, "kyc_status" varchar(10) not null, "kyc_reason" text null, "next_check_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "customers_pkey" primary key ("id"));`);
    this.addSql(`create index "customers_tenant_created_idx" on "customers" ("tenant_id", "created_at", "id");`);
    this.addSql(`create index "customers_kyc_due_idx" on "customers" ("next_check_at") where "next_check_at" is not null;`);
    this.addSql(`alter table "customers" add constraint "customers_tenant_external_unique" unique ("tenant_id", "external_id");`);

  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "customers" cascade;`);

  }

}
