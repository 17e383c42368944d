import { Migration } from '@mikro-orm/migrations';

/**
 * `payout_gate(open, reason)`: raises SQLSTATE GT001 when `open` is not true. A money-out written in
 * one round trip (docs/decisions.md § Performance: a money-out in one round trip) sends its whole
 * transaction as one script; a gate between its statements stops the script, so nothing after it
 * runs, when the idempotency key is taken or the hold did not post.
 */
export class Migration20261126040000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create or replace function payout_gate(open boolean, reason text) returns void language plpgsql as $$
begin
  if open is not true then
    raise exception 'payout gate closed: %', reason using errcode = 'GT001';
  end if;
end $$;`);
  }

  override async down(): Promise<void> {
    this.addSql('drop function if exists payout_gate(boolean, text);');
  }

}
