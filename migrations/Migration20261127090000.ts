import { Migration } from '@mikro-orm/migrations';

/**
 * Reconciliation findings of kind `unknown_provider_status` (docs/decisions.md § Reconciliation): a
 * provider answered a status its adapter does not map, recorded by the payout worker, a callback or
 * the reconciliation worker so an operator sees it. Only the finding check changes.
 */
export class Migration20261127090000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "reconciliation_checks" drop constraint "reconciliation_checks_finding_check";`);
    this.addSql(`alter table "reconciliation_checks" add constraint "reconciliation_checks_finding_check" check (finding in ('missing_at_provider', 'status_mismatch', 'amount_mismatch', 'unknown_provider_status'));`);
  }

  override async down(): Promise<void> {
    // The older check cannot hold these findings: they are cleared (the next look records them again).
    this.addSql(`update "reconciliation_checks" set "finding" = null, "finding_detail" = null where "finding" = 'unknown_provider_status';`);
    this.addSql(`alter table "reconciliation_checks" drop constraint "reconciliation_checks_finding_check";`);
    this.addSql(`alter table "reconciliation_checks" add constraint "reconciliation_checks_finding_check" check (finding in ('missing_at_provider', 'status_mismatch', 'amount_mismatch'));`);
  }

}
