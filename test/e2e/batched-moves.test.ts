import { randomUUID } from 'node:crypto';
import { applyMove } from '../../src/core/payments/advance-payment';
import type { Payment } from '../../src/core/payments/payment';
import type { PaymentMove } from '../../src/core/payments/payment-state';
import { moneyOutBody, startTestService, type TestService } from '../support/test-service';

/**
 * The payout worker's moves applied together (docs/decisions.md § Performance): the moves a batch's
 * units ask for at once are one transaction and one statement, and each still writes exactly what a
 * move applied alone writes: its status and details, its event with its webhook deliveries, its
 * ledger transaction in its payment's slot, and balances moved by the net of every leg.
 */
describe('payment moves applied together', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ WORKER_ENABLED: 'false', WEBHOOK_WORKER_ENABLED: 'false' });
  });
  afterAll(() => service.close());

  const sql = <T>(query: string, params: unknown[] = []) => service.database.orm.em.fork().getConnection().execute<T[]>(query, params);
  const balances = async (tenantId: string) => Object.fromEntries((await sql<{ kind: string; balance: string }>(
    `select kind, to_char(sum(balance), 'FM999999990.000000') as balance from ledger_accounts
      where tenant_id = ? and currency = 'USDC' and kind <> 'funding' group by kind order by kind`, [tenantId])).map((r) => [r.kind, r.balance]));
  const micro = (amount: string) => BigInt(amount.replace('.', ''));
  const fromMicro = (units: bigint) => `${units / 1_000_000n}.${(units % 1_000_000n).toString().padStart(6, '0')}`;

  async function tenantWithPayments(n: number) {
    const { tenantId, apiKey } = await service.newTenant('1000');
    const hook = await service.call('POST', '/v1/webhooks/register', { apiKey, body: { url: 'http://127.0.0.1:9/hook' } });
    expect(hook.status).toBe(201);
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const res = await service.call('POST', '/v1/payments/moneyout', { apiKey, body: moneyOutBody(), headers: { 'idempotency-key': randomUUID() } });
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    return { tenantId, apiKey, ids, amount: micro(String((await service.call('GET', `/v1/payments/${ids[0]}`, { apiKey })).body.amountStablecoin)) };
  }
  const read = async (id: string) => (await service.container.advanceDeps.payments.findById(id))!;
  /** Applies `move` to every payment at once, through the worker's unit of work, each with the payment as its caller holds it. */
  const together = (payments: Payment[], move: (p: Payment, i: number) => PaymentMove) => Promise.all(payments.map((p, i) => {
    const m = move(p, i);
    const details = m === 'accept' ? { providerRef: `ref_${p.id}` } : m === 'fail' ? { failure: { reason: 'Recipient account closed', code: 'recipient_account_invalid' as const } } : {};
    return applyMove(service.container.advanceDeps, p.id, m, details, p);
  }));

  it('moves many payments in one transaction, each with its own event, deliveries and ledger transaction in its slot', async () => {
    // More payments than balance slots (16), so some share a slot row and it must move by their sum.
    const { tenantId, apiKey, ids, amount } = await tenantWithPayments(20);
    const accepted = await together(await Promise.all(ids.map(read)), () => 'accept');
    expect(accepted.map((r) => r.ok && r.value.status)).toEqual(ids.map(() => 'provider_accepted'));

    // One transaction wrote every move.
    const writers = await sql<{ xmin: string }>('select distinct xmin::text as xmin from payments where id in (?)', [ids]);
    expect(writers).toHaveLength(1);
    for (const id of ids) {
      const view = (await service.call('GET', `/v1/payments/${id}`, { apiKey })).body;
      expect(view).toMatchObject({ status: 'provider_accepted', providerRef: `ref_${id}`, failureReason: null });
      // The event carries the payment as written, and the registration gets one delivery of it.
      const events = await sql<{ id: string; payload: unknown }>(
        "select id, payload from outbox_events where entity_id = ? and type = 'payment.processing'", [id]);
      expect(events).toHaveLength(1);
      // The payment's events carry it without its refund, which has events of its own (docs/api.md § Refunds).
      const { refund: _refund, ...payload } = view;
      expect(events[0]!.payload).toEqual(payload);
      const deliveries = await sql<{ event_id: string }>("select event_id from webhook_deliveries where entity_id = ? and event_type = 'payment.processing'", [id]);
      expect(deliveries).toEqual([{ event_id: events[0]!.id }]);
      // The send posts in the slot the hold took, two balanced entries.
      const txs = await sql<{ kind: string; slot: number; amount: string; entries: string; total: string }>(
        `select t.kind, t.slot, t.amount::text, count(e.*)::text as entries, sum(e.amount)::text as total
           from ledger_transactions t join ledger_entries e on e.transaction_id = t.id where t.payment_id = ? group by t.id order by t.kind`, [id]);
      expect(txs.map((t) => [t.kind, t.entries, Number(t.total)])).toEqual([['hold', '2', 0], ['send', '2', 0]]);
      expect(txs[1]!.slot).toBe(txs[0]!.slot);
    }
    const n = BigInt(ids.length);
    expect(await balances(tenantId)).toMatchObject({ available: fromMicro(1000_000_000n - n * amount), held: '0.000000', in_transit: fromMicro(n * amount) });

    // Mixed moves in one batch: half complete, half fail; slots shared between them move by their net.
    const settled = await together(await Promise.all(ids.map(read)), (_, i) => (i % 2 === 0 ? 'complete' : 'fail'));
    expect(settled.map((r) => r.ok && r.value.status)).toEqual(ids.map((_, i) => (i % 2 === 0 ? 'succeeded' : 'failed')));
    expect((await service.call('GET', `/v1/payments/${ids[1]}`, { apiKey })).body).toMatchObject({
      status: 'failed', failureReason: 'Recipient account closed', failureCode: 'recipient_account_invalid', providerRef: `ref_${ids[1]}`,
    });
    expect((await service.call('GET', `/v1/payments/${ids[0]}`, { apiKey })).body).toMatchObject({ status: 'succeeded', failureReason: null, failureCode: null });
    expect(await balances(tenantId)).toMatchObject({
      available: fromMicro(1000_000_000n - n * amount), held: '0.000000', in_transit: '0.000000',
      settled: fromMicro((n / 2n) * amount), refunded: fromMicro((n / 2n) * amount),
    });
    // Every slot row still equals the sum of its entries.
    const drifted = await sql(`select a.id from ledger_accounts a left join ledger_entries e on e.account_id = a.id
      where a.tenant_id = ? group by a.id, a.balance having a.balance <> coalesce(sum(e.amount), 0)`, [tenantId]);
    expect(drifted).toEqual([]);
  });

  it('a move whose payment moved meanwhile is refused alone; the others of its batch apply', async () => {
    const { ids } = await tenantWithPayments(6);
    const held = await Promise.all(ids.map(read));
    // Another process accepts one of them after the worker read it.
    expect((await applyMove(service.container.advanceDeps, ids[2]!, 'accept', { providerRef: 'first' })).ok).toBe(true);
    const results = await together(held, () => 'accept');
    expect(results.map((r) => r.ok)).toEqual([true, true, false, true, true, true]);
    expect(results[2]).toMatchObject({ ok: false, code: 'invalid_transition' });
    expect((await read(ids[2]!)).providerRef).toBe('first');
    const sends = await sql<{ n: string }>("select count(*)::text as n from ledger_transactions where payment_id in (?) and kind = 'send'", [ids]);
    expect(sends).toEqual([{ n: '6' }]);
  });

  it('two results for one payment in one batch apply once', async () => {
    const { ids } = await tenantWithPayments(3);
    const held = await Promise.all(ids.map(read));
    const results = await together([...held, held[0]!], () => 'accept');
    expect(results.filter((r) => r.ok)).toHaveLength(3);
    expect(results.filter((r) => !r.ok)).toHaveLength(1);
    const sends = await sql<{ n: string }>("select count(*)::text as n from ledger_transactions where payment_id = ? and kind = 'send'", [ids[0]]);
    expect(sends).toEqual([{ n: '1' }]);
  });
});
