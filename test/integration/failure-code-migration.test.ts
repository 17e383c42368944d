import { PAYMENT_STATUSES } from '../../src/core/payments/payment';
import { PAYMENT_FAILURE_CODES } from '../../src/core/payments/payment-failure';
import { migrationDatabase } from '../support/migration-database';

/** The last migration before payments got a failure code. */
const BEFORE = 'Migration20261126140000';

/**
 * The failure-code migration on a database that already holds payments (docs/decisions.md
 * § Payments: failure codes): failed and refunded payments get `unknown`, the others none, and
 * the check then holds the column to the core's closed set, present exactly on failed and refunded
 * payments.
 */
describe('payments.failure_code for existing payments', () => {
  const { sql, migrateUp } = migrationDatabase('payout_failmig', BEFORE);

  const insert = (id: string, status: string, failureCode?: string | null) => sql(
    `insert into payments (id, tenant_id, status, payment_method, source_currency, destination_currency, country, blockchain,
       amount_stablecoin, fiat_amount, exchange_rate, payout_fee, payment_code, refund_address, optional_issuer_fee, attempts,
       created_at, updated_at, failure_reason${failureCode === undefined ? '' : ', failure_code'})
     values (?, 'ten_OLD', ?, 'MOMO', 'USDC', 'KES', 'KE', 'SOLANA', 1, 100, 100, 0, 'MPESA', 'x', 'NO', 0, now(), now(), ?${failureCode === undefined ? '' : ', ?'})`,
    [id, status, status === 'failed' || status === 'refunded' ? 'old reason' : null, ...(failureCode === undefined ? [] : [failureCode])],
  );

  it('gives failed and refunded payments unknown, the others none, then checks the closed set on every write', async () => {
    await sql(`insert into tenants (id, name, environment, created_at) values ('ten_OLD', 'old', 'sandbox', now())`);
    for (const status of PAYMENT_STATUSES) await insert(`pay_old_${status}`, status);
    await migrateUp();

    expect(await sql('select id, failure_reason, failure_code from payments order by id')).toEqual([
      { id: 'pay_old_failed', failure_reason: 'old reason', failure_code: 'unknown' },
      { id: 'pay_old_initiated', failure_reason: null, failure_code: null },
      { id: 'pay_old_provider_accepted', failure_reason: null, failure_code: null },
      { id: 'pay_old_refunded', failure_reason: 'old reason', failure_code: 'unknown' },
      { id: 'pay_old_succeeded', failure_reason: null, failure_code: null },
    ]);

    // The migration's list is the core's: every code is stored on a failed payment, and nothing else is.
    for (const code of PAYMENT_FAILURE_CODES) await expect(insert(`pay_new_${code}`, 'failed', code)).resolves.toBeDefined();
    await expect(insert('pay_new_other', 'failed', 'account_closed')).rejects.toThrow(/payments_failure_code_check/);
    await expect(insert('pay_new_none', 'refunded', null)).rejects.toThrow(/payments_failure_code_check/);
    await expect(insert('pay_new_succeeded', 'succeeded', 'declined')).rejects.toThrow(/payments_failure_code_check/);
    await expect(sql(`update payments set status = 'failed' where id = 'pay_old_provider_accepted'`)).rejects.toThrow(/payments_failure_code_check/);
  });
});
