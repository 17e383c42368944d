import { randomUUID } from 'node:crypto';
import { migrationDatabase } from '../support/migration-database';

/** The last migration before outbox rows carried their transaction id and sequence. */
const BEFORE = 'Migration20261127200000';

/**
 * The outbox sequence migration on a database that already holds events (docs/decisions.md
 * § Performance, "NOTIFY after commit"): rows written before keep null (no table rewrite, and the
 * live feed never reads them); every row written after records its transaction and a number drawn
 * in write order.
 */
describe('outbox events: transaction id and sequence', () => {
  const { sql, migrateUp } = migrationDatabase('payout_outboxseq', BEFORE);
  const insert = (id: string) => `insert into outbox_events (id, tenant_id, type, entity_id, payload, created_at)
    values ('${id}', 'ten_SEQ', 'payment.initiated', 'pay_SEQ', '{}', now())`;

  it('leaves earlier rows null and gives later ones their transaction id and increasing numbers', async () => {
    const old = randomUUID();
    await sql(insert(old));
    await migrateUp();

    const [first, second, third] = [randomUUID(), randomUUID(), randomUUID()];
    await sql(insert(first));
    // Two rows in one transaction: one transaction id, numbers in write order.
    await sql(`begin; ${insert(second)}; ${insert(third)}; commit`);
    const rows = await sql<{ id: string; xid: string | null; seq: string | null }>(
      'select id::text, xid::text, seq::text from outbox_events where tenant_id = ? order by seq nulls first', ['ten_SEQ']);
    expect(rows.map((r) => r.id)).toEqual([old, first, second, third]);
    expect(rows[0]).toMatchObject({ xid: null, seq: null });
    expect(rows[1]!.xid).not.toBeNull();
    expect(rows[2]!.xid).toBe(rows[3]!.xid);
    expect(BigInt(rows[2]!.xid!)).toBeGreaterThan(BigInt(rows[1]!.xid!));
    expect(Number(rows[2]!.seq)).toBeGreaterThan(Number(rows[1]!.seq));
    expect(Number(rows[3]!.seq)).toBe(Number(rows[2]!.seq) + 1);
  });
});
