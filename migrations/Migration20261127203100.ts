import { Migration } from '@mikro-orm/migrations';

/**
 * A hand-sent refund's transaction is checked onchain against every refund already recorded with
 * it (docs/decisions.md § Refunds: reads and operators): those are found by (blockchain, tx_hash).
 */
export class Migration20261127203100 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create index "onchain_refunds_tx_hash_idx" on "onchain_refunds" ("blockchain", "tx_hash") where "tx_hash" is not null;`);
  }

  override async down(): Promise<void> {
    this.addSql('drop index if exists "onchain_refunds_tx_hash_idx";');
  }
}
