import { Migration } from '@mikro-orm/migrations';

/**
 * Why an onchain refund is `failed` (docs/decisions.md § Refunds: refusals), where operators read
 * refunds: a refusal of the hot wallet's sender (`invalid_address`, `own_address`,
 * `amount_not_representable`) or `reverted` (its transaction landed and reverted). Null in any
 * other status; a failed refund from before this column has none (all such were reverts: they
 * are marked so). Not required on `failed`, so a failed row written without a reason is still accepted.
 */
export class Migration20261127171500 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "onchain_refunds" add column "failure_reason" varchar(30) null;`);
    this.addSql(`update "onchain_refunds" r set "failure_reason" = 'reverted' where r."status" = 'failed'
      and exists (select 1 from "onchain_refund_attempts" a where a."refund_id" = r."id" and a."status" = 'reverted');`);
    this.addSql(`alter table "onchain_refunds" add constraint "onchain_refunds_failure_reason_check" check (
      "failure_reason" is null
      or ("failure_reason" in ('invalid_address', 'own_address', 'amount_not_representable', 'reverted') and "status" = 'failed'));`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "onchain_refunds" drop constraint if exists "onchain_refunds_failure_reason_check";`);
    this.addSql(`alter table "onchain_refunds" drop column if exists "failure_reason";`);
  }

}
