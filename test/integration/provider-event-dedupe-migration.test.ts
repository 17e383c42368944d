import { randomUUID } from 'node:crypto';
import { migrationDatabase } from '../support/migration-database';

/** The last migration before provider events were stored once. */
const BEFORE = 'Migration20261126140000';

/**
 * The provider-events keys on a database that already holds duplicates (docs/decisions.md § Payout
 * providers: callbacks): the migration keeps every stored row, and from then on a message is stored
 * once, by its content hash or by its provider event id and outcome.
 */
describe('provider events stored once, on a database with earlier duplicates', () => {
  const { sql, migrateUp } = migrationDatabase('payout_cbdedupe', BEFORE);
  const insert = (providerEventId: string | null, outcome: string | null, contentHash?: string, provider = 'paystack') => sql(
    `insert into provider_events (id, provider, payment_id, provider_event_id, outcome, verdict, raw_body_sealed, received_at${contentHash ? ', content_hash' : ''})
     values (?, ?, 'pay_01JD5Z8Q6V3W2X1Y0Z9A8B7C6D', ?, ?, 'applied', 'pd1.x', now()${contentHash ? ', ?' : ''})`,
    [randomUUID(), provider, providerEventId, outcome, ...(contentHash ? [contentHash] : [])],
  );

  it('keeps the duplicates stored before, and refuses new ones by content and by event id with outcome', async () => {
    await insert('TRF_1:transfer.success', 'succeeded');
    await insert('TRF_1:transfer.success', 'succeeded');
    await migrateUp();
    expect(await sql('select count(*)::int as n from provider_events')).toEqual([{ n: 2 }]);

    await insert('TRF_2:transfer.success', 'succeeded', 'ph1.a');
    await expect(insert(null, null, 'ph1.a')).rejects.toThrow(/provider_events_content_unique/);
    await expect(insert('TRF_2:transfer.success', 'succeeded', 'ph1.b')).rejects.toThrow(/provider_events_event_unique/);
    // Another outcome under the same id, the same content from another provider, and no event id: all stored.
    await insert('TRF_2:transfer.success', 'pending', 'ph1.c');
    await insert(null, null, 'ph1.a', 'mpesa');
    await insert(null, 'pending', 'ph1.d');
    await insert(null, 'pending', 'ph1.e');
    // An old row (no content hash) takes part in neither key.
    await insert('TRF_1:transfer.success', 'succeeded', 'ph1.f');
    expect(await sql('select count(*)::int as n from provider_events')).toEqual([{ n: 8 }]);
  });
});
