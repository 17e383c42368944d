import { migrationDatabase } from '../support/migration-database';

/** The last migration before refund failure reasons. */
const BEFORE = 'Migration20261127163000';
const FAILURE_REASON = 'Migration20261127171500';

/**
 * `onchain_refunds.failure_reason` (docs/decisions.md § Refunds: refusals) on a database holding
 * refunds already: a failed refund whose attempt reverted gets `reverted`, every other row none,
 * and PostgreSQL then keeps reasons to the closed set and to failed refunds.
 */
describe('refund failure reasons', () => {
  const { sql, migrateUp } = migrationDatabase('payout_refreason', BEFORE);
  const refund = (id: string, status: string, txHash: string | null) => sql(
    `insert into onchain_refunds (id, payment_id, tenant_id, amount, currency, blockchain, refund_address, status, tx_hash, created_at, sent_at)
     values (?, ?, 'ten_OLD', 1.5, 'USDT', 'BSC', '0x000000000000000000000000000000000000dEaD', ?, ?, now(), null)`, [id, `pay_${id}`, status, txHash]);
  const hash = `0x${'ab'.repeat(32)}`;

  it('marks the failed refunds whose attempt reverted, and no other; then refuses a reason off the set or on a refund that is not failed', async () => {
    await refund('rfd_PENDING', 'pending', null);
    await refund('rfd_REVERTED', 'failed', hash);
    await refund('rfd_FAILED_BY_HAND', 'failed', null);
    await sql(
      `insert into onchain_refund_attempts (id, refund_id, blockchain, wallet, tx_hash, tx_hashes, raw_transaction, nonce, status, attempts, landed_hash, landed_height, created_at, signed_at)
       values ('rfa_1', 'rfd_REVERTED', 'BSC', '0xabc', ?, array[?], '0x00', 0, 'reverted', 1, ?, 7, now(), now())`, [hash, hash, hash]);
    await migrateUp(FAILURE_REASON);
    expect(await sql(`select id, failure_reason from onchain_refunds order by id`)).toEqual([
      { id: 'rfd_FAILED_BY_HAND', failure_reason: null }, { id: 'rfd_PENDING', failure_reason: null }, { id: 'rfd_REVERTED', failure_reason: 'reverted' },
    ]);
    await expect(sql(`update onchain_refunds set failure_reason = 'reverted' where id = 'rfd_PENDING'`)).rejects.toThrow(/onchain_refunds_failure_reason_check/);
    await expect(sql(`update onchain_refunds set failure_reason = 'bogus' where id = 'rfd_FAILED_BY_HAND'`)).rejects.toThrow(/onchain_refunds_failure_reason_check/);
    await sql(`update onchain_refunds set failure_reason = 'own_address' where id = 'rfd_FAILED_BY_HAND'`);
    expect(await sql(`select failure_reason from onchain_refunds where id = 'rfd_FAILED_BY_HAND'`)).toEqual([{ failure_reason: 'own_address' }]);
  });
});
