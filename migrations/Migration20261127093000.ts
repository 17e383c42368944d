import { Migration } from '@mikro-orm/migrations';

/**
 * Provider callbacks stored once (docs/decisions.md § Payout providers: callbacks): `content_hash`
 * (a keyed hash of what the provider sent) is unique per provider, and so is the provider's event id
 * with the outcome. Rows stored before have no hash (their sealed bodies cannot be hashed here) and
 * take part in neither key, so the duplicates stored by earlier versions stay as they were.
 */
export class Migration20261127093000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "provider_events" add column "content_hash" varchar(64) null;`);
    this.addSql(`create unique index "provider_events_content_unique" on "provider_events" ("provider", "content_hash");`);
    this.addSql(`create unique index "provider_events_event_unique" on "provider_events" ("provider", "provider_event_id", coalesce("outcome", '')) where "provider_event_id" is not null and "content_hash" is not null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "provider_events_event_unique";`);
    this.addSql(`drop index if exists "provider_events_content_unique";`);
    this.addSql(`alter table "provider_events" drop column if exists "content_hash";`);
  }

}
