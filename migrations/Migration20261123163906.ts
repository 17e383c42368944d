import { Migration } from '@mikro-orm/migrations';

/**
 * A quote locks its rate for one money-out, once (docs/decisions.md § FX quotes and the quote
 * lock): the money-out that uses it records when and which payment. Quotes already named by
 * payments are marked used by the first of them, so none is reused after the upgrade.
 */
export class Migration20261123163906 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "quotes" add column "used_at" timestamptz null, add column "payment_id" varchar(40) null;`);
    this.addSql(`update quotes q set used_at = p.created_at, payment_id = p.id
      from (select distinct on (quote_id) quote_id, id, created_at from payments where quote_id is not null order by quote_id, created_at, id) p
     where p.quote_id = q.id;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "quotes" drop column "used_at", drop column "payment_id";`);
  }

}
