import { Migration } from '@mikro-orm/migrations';

/**
 * Webhook hardening (docs/decisions.md § Webhooks): a per-tenant registration cap set by an operator
 * (`tenants.webhook_limit`, null: the service default), and the partial index the delivery claim
 * reads to keep one entity's events in order per registration.
 */
export class Migration20261123163411 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "tenants" add column "webhook_limit" int null;`);
    this.addSql(`create index "webhook_deliveries_order_idx" on "webhook_deliveries" ("registration_id", "entity_id", "created_at") where "status" = 'pending';`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "tenants" drop column "webhook_limit";`);
    this.addSql(`drop index "webhook_deliveries_order_idx";`);
  }

}
