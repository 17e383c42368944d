import { Migration } from '@mikro-orm/migrations';

/**
 * The reconciliation worker's record of checks and findings, and the partial index it reads
 * payments stuck in provider_accepted through (docs/decisions.md § Reconciliation).
 */
export class Migration20261123193317 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "reconciliation_checks" ("payment_id" varchar(40) not null, "tenant_id" varchar(40) not null, "provider" varchar(20) null, "checks" int not null default 0, "checked_at" timestamptz null, "next_check_at" timestamptz not null, "finding" varchar(30) null, "finding_detail" text null, constraint "reconciliation_checks_pkey" primary key ("payment_id"), constraint reconciliation_checks_finding_check check (finding in ('missing_at_provider', 'status_mismatch', 'amount_mismatch')));`);
    this.addSql(`create index "reconciliation_checks_finding_idx" on "reconciliation_checks" ("checked_at") where "finding" is not null;`);
    this.addSql(`create index "payments_accepted_idx" on "payments" ("accepted_at") where "status" = 'provider_accepted';`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "payments_accepted_idx";`);
    this.addSql(`drop table if exists "reconciliation_checks" cascade;`);
  }

}
