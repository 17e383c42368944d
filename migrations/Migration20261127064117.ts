import { Migration } from '@mikro-orm/migrations';

/**
 * Webhook delivery lanes (docs/decisions.md § Performance, webhook deliveries): the partial index
 * the claim reads lane by lane, per registration in due order, so a registration whose lane is
 * full (a hanging endpoint) costs the claim one index probe instead of a walk over its due rows.
 */
export class Migration20261127064117 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create index "webhook_deliveries_lane_idx" on "webhook_deliveries" ("registration_id", "next_retry_at") where "status" = 'pending';`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "webhook_deliveries_lane_idx";`);
  }

}
