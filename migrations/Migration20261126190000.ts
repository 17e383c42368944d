import { Migration } from '@mikro-orm/migrations';

/**
 * Failure codes (docs/decisions.md § Payments: failure codes): `payments.failure_code`, the
 * machine-readable class of `failure_reason`. Payments already failed or refunded get `unknown`,
 * since the reason they carry was never classified; then the check keeps the column in the closed
 * set and set exactly on failed and refunded payments. Webhook payloads and idempotency records
 * already stored keep the bodies they had.
 */
export class Migration20261126190000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "payments" add column "failure_code" varchar(40) null;`);
    this.addSql(`update "payments" set "failure_code" = 'unknown' where "status" in ('failed', 'refunded');`);
    this.addSql(`alter table "payments" add constraint "payments_failure_code_check" check ((failure_code is null or failure_code in ('recipient_account_invalid', 'limit_exceeded', 'insufficient_provider_balance', 'declined', 'expired', 'reversed', 'unsupported_by_provider', 'provider_error', 'unknown')) and ((status in ('failed', 'refunded')) = (failure_code is not null)));`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "payments" drop constraint "payments_failure_code_check";`);
    this.addSql(`alter table "payments" drop column "failure_code";`);
  }

}
