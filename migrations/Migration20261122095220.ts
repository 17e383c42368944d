import { Migration } from '@mikro-orm/migrations';

/** Transfer requests (OpenAPI createTransferRequest). */
export class Migration20261122095220 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "transfer_requests" ("id" varchar(40) not null, "tenant_id" varchar(40) not null, "reference" varchar(128) not null, "recipient" varchar(128) not null, "amount" numeric(38,6) not null, "currency" varchar(4) not null, "acquirer" varchar(32) not null, "merchant_id" varchar(100) not null, "description" varchar(100) null, "success_url" varchar(256) null, "failed_url" varchar(256) null, "webhook_url" varchar(256) null, "custom_reference" varchar(100) null, "merchant_category_code" varchar(10) null, "payment_processor" varchar(32) not null, "terminal_type" varchar(3) not null, "link" text not null, "expires_at" timestamptz not null, "created_at" timestamptz not null, constraint "transfer_requests_pkey" primary key ("id"));`);
    this.addSql(`alter table "transfer_requests" add constraint "transfer_requests_tenant_reference_unique" unique ("tenant_id", "reference");`);

  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "transfer_requests" cascade;`);

  }

}
