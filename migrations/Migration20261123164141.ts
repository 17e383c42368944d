import { Migration } from '@mikro-orm/migrations';

/**
 * Opaque deeplink tokens (docs/decisions.md § Personal data and secrets): each transfer request
 * keeps the random token its link carries, unique, so the acquirer's lookup finds it. Requests
 * made before have none (their links carried signed claims and expire within the link lifetime).
 */
export class Migration20261123164141 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "transfer_requests" add column "token" varchar(36) null;`);
    this.addSql(`alter table "transfer_requests" add constraint "transfer_requests_token_unique" unique ("token");`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "transfer_requests" drop constraint "transfer_requests_token_unique";`);
    this.addSql(`alter table "transfer_requests" drop column "token";`);
  }

}
