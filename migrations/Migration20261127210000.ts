import { Migration } from '@mikro-orm/migrations';

/**
 * Compliance reviews of three kinds of subject (docs/decisions.md § Screening): a held payment, a
 * customer whose KYC waits for the review, a deposit whose sender is a listed address. The review
 * is keyed by its subject's id (pay_, cus_ or dep_: unique across kinds); existing rows are payments.
 */
export class Migration20261127210000 extends Migration {

  override async up(): Promise<void> {
    this.addSql('alter table "compliance_reviews" rename column "payment_id" to "subject_id";');
    this.addSql('alter table "compliance_reviews" add column "subject_kind" varchar(10) not null default \'payment\';');
    this.addSql('alter table "compliance_reviews" alter column "subject_kind" drop default;');
    this.addSql(`alter table "compliance_reviews" add constraint compliance_reviews_subject_kind_check check (subject_kind in ('payment', 'customer', 'deposit'));`);
  }

  override async down(): Promise<void> {
    this.addSql(`delete from "compliance_reviews" where subject_kind <> 'payment';`);
    this.addSql('alter table "compliance_reviews" drop constraint compliance_reviews_subject_kind_check;');
    this.addSql('alter table "compliance_reviews" drop column "subject_kind";');
    this.addSql('alter table "compliance_reviews" rename column "subject_id" to "payment_id";');
  }

}
