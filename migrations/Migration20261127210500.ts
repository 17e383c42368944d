import { Migration } from '@mikro-orm/migrations';

/**
 * Deposits from sanctioned senders (docs/decisions.md § Screening: deposits): a final deposit
 * whose sender is an OFAC-listed address is `held` (not credited) with a compliance review, and
 * `rejected` once the review rejects it (never credited).
 */
export class Migration20261127210500 extends Migration {

  override async up(): Promise<void> {
    this.addSql('alter table "deposits" drop constraint "deposits_status_check";');
    this.addSql(`alter table "deposits" add constraint deposits_status_check check(status in ('detected', 'credited', 'dropped', 'held', 'rejected'));`);
  }

  override async down(): Promise<void> {
    this.addSql('alter table "deposits" drop constraint "deposits_status_check";');
    this.addSql(`alter table "deposits" add constraint deposits_status_check check(status in ('detected', 'credited', 'dropped'));`);
  }

}
