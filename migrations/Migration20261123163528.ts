import { Migration } from '@mikro-orm/migrations';

/**
 * Personal data sealed at rest (docs/decisions.md § Personal data and secrets): new columns for the
 * sealed id number and its keyed hash, and for the sealed account number and name. The clear columns
 * stay, nullable, for the start-up backfill to read and empty; a later migration drops them (and the
 * partial indexes below) once every installation has run it. The partial indexes hold only rows still
 * in clear, so each start finds them without reading the whole table.
 */
export class Migration20261123163528 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "customers" add column "id_number_sealed" text null, add column "id_number_hash" varchar(47) null;`);
    this.addSql(`alter table "customers" alter column "id_number" drop not null;`);
    this.addSql(`create index "customers_tenant_id_number_hash_idx" on "customers" ("tenant_id", "id_number_hash");`);
    this.addSql(`create index "customers_id_number_clear_idx" on "customers" ("id") where "id_number" is not null;`);

    this.addSql(`alter table "payments" add column "account_name_sealed" text null, add column "account_number_sealed" text null;`);
    this.addSql(`alter table "payments" alter column "account_name" drop not null, alter column "account_number" drop not null;`);
    this.addSql(`create index "payments_account_clear_idx" on "payments" ("id") where "account_number" is not null or "account_name" is not null;`);
  }

  // Only before any row was sealed: afterwards the clear columns are empty and setting them
  // NOT NULL fails, which is the point (the key is needed to get the values back).
  override async down(): Promise<void> {
    this.addSql(`drop index "payments_account_clear_idx";`);
    this.addSql(`alter table "payments" alter column "account_name" set not null, alter column "account_number" set not null;`);
    this.addSql(`alter table "payments" drop column "account_name_sealed", drop column "account_number_sealed";`);

    this.addSql(`drop index "customers_id_number_clear_idx";`);
    this.addSql(`drop index "customers_tenant_id_number_hash_idx";`);
    this.addSql(`alter table "customers" alter column "id_number" set not null;`);
    this.addSql(`alter table "customers" drop column "id_number_sealed", drop column "id_number_hash";`);
  }

}
