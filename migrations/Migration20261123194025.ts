import { Migration } from '@mikro-orm/migrations';

/**
 * A payment records its payout provider and a submission marker (docs/decisions.md § Payout
 * providers: routing and failover, § Payout providers: never pay twice). Payments the sandbox
 * already accepted (`sbx_` references) are marked `sandbox`; nothing live was ever submitted.
 */
export class Migration20261123194025 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "payments" add column "provider" varchar(32) null, add column "submitted_at" timestamptz null;`);
    this.addSql(`update "payments" set "provider" = 'sandbox' where "provider_ref" like 'sbx\\_%';`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "payments" drop column "provider", drop column "submitted_at";`);
  }

}
