import { Migration } from '@mikro-orm/migrations';

/** Tenant payout settings for legacy payouts (OpenAPI legacyPayout): stablecoin, chain, refund address. */
export class Migration20261122094904 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "tenants" add column "payout_source_currency" varchar(4) not null default 'USDC', add column "payout_blockchain" varchar(10) not null default 'SOLANA', add column "payout_refund_address" varchar(64) null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "tenants" drop column "payout_source_currency", drop column "payout_blockchain", drop column "payout_refund_address";`);
  }

}
