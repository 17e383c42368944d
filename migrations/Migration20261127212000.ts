import { Migration } from '@mikro-orm/migrations';

/**
 * Outbox events readable in commit order without NOTIFY in the writing transaction
 * (docs/decisions.md § GraphQL, the live feed): `xid` is the writing transaction's id (xid8, epoch
 * included, so it never wraps), `seq` the order of the rows within and across transactions. The
 * sequence keeps the default cache of 1, so every session draws from one counter in order. Both
 * columns are added without a rewrite: rows written before stay null and the feed never reads them.
 */
export class Migration20261127212000 extends Migration {

  override async up(): Promise<void> {
    this.addSql('create sequence "outbox_events_seq" as bigint cache 1;');
    this.addSql('alter table "outbox_events" add column "xid" xid8 null, add column "seq" bigint null;');
    this.addSql(`alter table "outbox_events" alter column "xid" set default pg_current_xact_id(),
      alter column "seq" set default nextval('outbox_events_seq');`);
    this.addSql('alter sequence "outbox_events_seq" owned by "outbox_events"."seq";');
    this.addSql('create index "outbox_events_xid_idx" on "outbox_events" ("xid") where "xid" is not null;');
  }

  override async down(): Promise<void> {
    this.addSql('drop index if exists "outbox_events_xid_idx";');
    this.addSql('alter table "outbox_events" drop column if exists "seq", drop column if exists "xid";');
    this.addSql('drop sequence if exists "outbox_events_seq";');
  }
}
