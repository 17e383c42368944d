import { Migration } from '@mikro-orm/migrations';

/**
 * Pricing records (docs/decisions.md § FX quotes: pricing records): `quotes` and `payments` gain a
 * nullable jsonb `pricing`, written in the same statement as the row (mid rate, spread, each
 * source's rate and own timestamp, fee). Rows stored before keep null: nothing recorded them.
 */
export class Migration20261127153000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "quotes" add column "pricing" jsonb null;`);
    this.addSql(`alter table "payments" add column "pricing" jsonb null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "payments" drop column "pricing";`);
    this.addSql(`alter table "quotes" drop column "pricing";`);
  }

}
