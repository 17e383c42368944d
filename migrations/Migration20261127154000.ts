import { Migration } from '@mikro-orm/migrations';

/**
 * Operators' actions on onchain refunds (docs/decisions.md § Refunds: reads and operators): every retry of a
 * failed refund and every hand-sent transaction recorded is kept with the admin key (or CLI user)
 * that did it, the move it made and when. Rows are only ever inserted (the audit record).
 * `onchain_refunds` gains an index on (tenant_id, created_at, id) for the issuer's own list
 * (GET /v1/refunds, newest first); a payment's refund is read by the existing unique payment_id.
 */
export class Migration20261127154000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "onchain_refund_actions" (
      "id" bigserial not null, "refund_id" varchar(40) not null references "onchain_refunds" ("id"), "action" varchar(20) not null,
      "actor" varchar(120) not null, "from_status" varchar(10) not null, "to_status" varchar(10) not null, "tx_hash" varchar(90) null,
      "created_at" timestamptz not null,
      constraint "onchain_refund_actions_pkey" primary key ("id"),
      constraint onchain_refund_actions_action_check check (action in ('retry', 'record_sent')));`);
    this.addSql(`create index "onchain_refund_actions_refund_idx" on "onchain_refund_actions" ("refund_id", "created_at");`);
    this.addSql(`create index "onchain_refunds_tenant_idx" on "onchain_refunds" ("tenant_id", "created_at" desc, "id" desc);`);
  }

  override async down(): Promise<void> {
    this.addSql('drop index if exists "onchain_refunds_tenant_idx";');
    this.addSql('drop table if exists "onchain_refund_actions";');
  }
}
