import { Migration } from '@mikro-orm/migrations';

/**
 * Personal data sealed at rest (docs/decisions.md § Personal data and secrets): new columns for the
 * sealed id number and its keyed hash, and for the sealed account number and name. The clear columns
 * stay, nullable, for the start-up backfill to read and empty; a later migration drops them once every
 * installation has run it.
 */
export class Migration20261123163528 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "customers" add column "id_number_sealed" text null, add column "id_number_hash" varchar(47) null;`);
    this.addSql(`alter table "customers" alter column "id_number" drop not null;`);
    this.addSql(`create index "customers_tenant_id_number_hash_idx" on "customers" ("tenant_id", "id_number_hash");`);

    this.addSql(`alter table "payments" add column "account_name_sealed" text null, add column "account_number_sealed" text null;`);
    this.addSql(`alter table "payments" alter column "account_name" drop not null, alter column "account_number" drop not null;`);
  }

  // Only before any row was sealed: afterwards the clear columns are empty and setting them
  // NOT NULL fails, which is the point (the key is needed to get the values back).
  override async down(): Promise<void> {
    this.addSql(`alter table "payments" alter column "account_name" set not null, alter column "account_number" set not null;`);
    this.addSql(`alter table "payments" drop column "account_name_sealed", drop column "account_number_sealed";`);

    this.addSql(`drop index "customers_tenant_id_number_hash_idx";`);
    this.addSql(`alter table "customers" alter column "id_number" set not null;`);
    this.addSql(`alter table "customers" drop column "id_number_sealed", drop column "id_number_hash";`);
  }

}
