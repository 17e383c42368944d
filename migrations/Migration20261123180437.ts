import { Migration } from '@mikro-orm/migrations';

/**
 * Idempotency records no longer store an HTTP status (docs/decisions.md § Idempotency): the use
 * case says whether a money-out was created or replayed and each transport picks its own status.
 * The column stays, defaulting to 201 (the only status ever stored), so replicas of the previous
 * release, which still read it, answer replays of rows written by this one correctly; a later
 * release drops it.
 */
export class Migration20261123180437 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "idempotency_keys" alter column "response_status" set default 201;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "idempotency_keys" alter column "response_status" drop default;`);
  }

}
