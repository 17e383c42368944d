import { CoalescedPaymentViewReader, type PaymentViewKey } from '../../src/adapters/persistence/payment-view.reader';

/** A stored payment row as PAYMENT_VIEWS_SQL returns it. */
const row = (tenantId: string, id: string, status = 'initiated', failureCode: string | null = null) => ({
  id, tenant_id: tenantId, status, payment_method: 'MOMO', source_currency: 'USDC', amount_stablecoin: '12.115416', fiat_amount: '1500',
  destination_currency: 'KES', provider_ref: null, reference: `ref-${id}`, created_at: new Date('2026-11-26T10:00:00Z'),
  updated_at: '2026-11-26T10:00:01Z', failure_reason: failureCode ? 'Recipient wallet closed' : null, failure_code: failureCode,
  exchange_rate: '129.2', payout_fee: '0.51',
});

/** A fetch over `rows` that records the keys of each call and answers as the SQL does: a row only under its own tenant. */
function fakeFetch(rows: ReturnType<typeof row>[]) {
  const calls: PaymentViewKey[][] = [];
  const fetch = async (keys: readonly PaymentViewKey[]) => {
    calls.push([...keys]);
    return rows.filter((r) => keys.some((k) => k.paymentId === r.id && k.tenantId === r.tenant_id));
  };
  return { calls, fetch };
}

describe('CoalescedPaymentViewReader', () => {
  it('reads asked for in one turn of the event loop go to the store as one call, each answered with its own payment', async () => {
    const { calls, fetch } = fakeFetch([row('ten_a', 'pay_1'), row('ten_b', 'pay_2', 'failed', 'recipient_account_invalid')]);
    const reader = new CoalescedPaymentViewReader(fetch);
    const [a, b, missing] = await Promise.all([reader.read('ten_a', 'pay_1'), reader.read('ten_b', 'pay_2'), reader.read('ten_a', 'pay_9')]);
    expect(calls).toEqual([[
      { tenantId: 'ten_a', paymentId: 'pay_1' }, { tenantId: 'ten_b', paymentId: 'pay_2' }, { tenantId: 'ten_a', paymentId: 'pay_9' },
    ]]);
    expect(a).toEqual({
      id: 'pay_1', status: 'initiated', paymentMethod: 'MOMO', sourceCurrency: 'USDC', amountStablecoin: '12.115416', fiatAmount: '1500',
      destinationCurrency: 'KES', providerRef: null, reference: 'ref-pay_1', createdAt: new Date('2026-11-26T10:00:00Z'),
      updatedAt: new Date('2026-11-26T10:00:01Z'), failureReason: null, failureCode: null, exchangeRate: '129.2', payoutFee: '0.51',
    });
    expect(b && [b.status, b.failureReason, b.failureCode]).toEqual(['failed', 'Recipient wallet closed', 'recipient_account_invalid']);
    expect(missing).toBeUndefined();
  });

  it('never answers a payment under another tenant, even when the store returns its row in the same batch', async () => {
    // The other tenant asks for the same id in the same turn: its row is in the answer, and must go to it alone.
    const { fetch } = fakeFetch([row('ten_b', 'pay_1')]);
    const reader = new CoalescedPaymentViewReader(fetch);
    const [asA, asB] = await Promise.all([reader.read('ten_a', 'pay_1'), reader.read('ten_b', 'pay_1')]);
    expect(asA).toBeUndefined();
    expect(asB?.id).toBe('pay_1');
  });

  it('reads asked for in later turns go in later calls, and every read is fresh (nothing is cached)', async () => {
    const rows = [row('ten_a', 'pay_1')];
    const { calls, fetch } = fakeFetch(rows);
    const reader = new CoalescedPaymentViewReader(fetch);
    expect((await reader.read('ten_a', 'pay_1'))?.status).toBe('initiated');
    rows[0] = row('ten_a', 'pay_1', 'succeeded');
    expect((await reader.read('ten_a', 'pay_1'))?.status).toBe('succeeded');
    expect(calls).toHaveLength(2);
  });

  it('splits a turn with more reads than one call may carry', async () => {
    const { calls, fetch } = fakeFetch([]);
    const reader = new CoalescedPaymentViewReader(fetch, 2);
    await Promise.all(['pay_1', 'pay_2', 'pay_3'].map((id) => reader.read('ten_a', id)));
    expect(calls.map((c) => c.length)).toEqual([2, 1]);
  });

  it('answers an id PostgreSQL could not compare (a NUL) as not found without sending it, so the other reads of its turn still go', async () => {
    const { calls, fetch } = fakeFetch([row('ten_a', 'pay_1')]);
    const reader = new CoalescedPaymentViewReader(fetch);
    const [bad, good, badTenant] = await Promise.all([
      reader.read('ten_a', 'pay_\u0000'), reader.read('ten_a', 'pay_1'), reader.read('ten_\u0000', 'pay_1'),
    ]);
    expect([bad, good?.id, badTenant]).toEqual([undefined, 'pay_1', undefined]);
    expect(calls).toEqual([[{ tenantId: 'ten_a', paymentId: 'pay_1' }]]);
    expect(await reader.read('ten_a', '\u0000')).toBeUndefined();
    expect(calls).toHaveLength(1);
  });

  it('rejects every read of a failed call with its error', async () => {
    const reader = new CoalescedPaymentViewReader(async () => { throw new Error('connection lost'); });
    const reads = [reader.read('ten_a', 'pay_1'), reader.read('ten_b', 'pay_2')];
    for (const read of reads) await expect(read).rejects.toThrow('connection lost');
  });
});
