import { randomUUID } from 'node:crypto';
import { applyMove } from '../../src/core/payments/advance-payment';
import { LEDGER_MOVES } from '../../src/core/ledger/ledger';
import { PAYMENT_MOVES, type PaymentMove } from '../../src/core/payments/payment-state';
import { eventually, moneyOutBody, startTestService, type TestService } from '../support/test-service';
import { solanaTxHash } from '../support/tx-hashes';
import { Decimal } from '../../src/core/shared/money';

/**
 * A tenant's seven USDC accounts (balance and counter-accounts, docs/decisions.md § Ledger), read from
 * the database: each account is the sum of its balance slots.
 */
async function accountsOf(service: TestService, tenantId: string): Promise<Record<string, string>> {
  const rows = await service.database.orm.em.fork().getConnection().execute(
    `select kind, to_char(sum(balance), 'FM999999990.000000') as balance from ledger_accounts
      where tenant_id = ? and currency = 'USDC' group by kind order by kind`, [tenantId]);
  return Object.fromEntries((rows as { kind: string; balance: string }[]).map((r) => [r.kind, r.balance]));
}

/** Decimal string of scale 6 to micro-units, and back (exact). */
const micro = (amount: string) => BigInt(amount.replace('-', '').replace('.', '')) * (amount.startsWith('-') ? -1n : 1n);
const fromMicro = (units: bigint) => `${units < 0n ? '-' : ''}${(units < 0n ? -units : units) / 1_000_000n}.${String((units < 0n ? -units : units) % 1_000_000n).padStart(6, '0')}`;

/** Ledger invariants (docs/decisions.md § Ledger) checked against the database itself. */
async function reconcile(service: TestService): Promise<void> {
  const conn = service.database.orm.em.fork().getConnection();
  const unbalanced = await conn.execute(
    'select transaction_id from ledger_entries group by transaction_id having sum(amount) <> 0');
  expect(unbalanced).toEqual([]);
  const drifted = await conn.execute(
    `select a.id from ledger_accounts a left join ledger_entries e on e.account_id = a.id
      group by a.id, a.balance having a.balance <> coalesce(sum(e.amount), 0)`);
  expect(drifted).toEqual([]);
  // Credit rows never below zero; the debit rows of held (slots 16-31) never above it.
  const negative = await conn.execute(`select id from ledger_accounts where kind <> 'funding' and not (kind = 'held' and slot >= 16) and balance < 0`);
  expect(negative).toEqual([]);
  const positiveDebitRows = await conn.execute(`select id from ledger_accounts where kind = 'held' and slot >= 16 and balance > 0`);
  expect(positiveDebitRows).toEqual([]);
  const settledTwice = await conn.execute(
    `select payment_id, kind from ledger_transactions where payment_id is not null group by payment_id, kind having count(*) > 1`);
  expect(settledTwice).toEqual([]);
}

describe('balances ledger', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service.close());

  const create = (apiKey: string, overrides: Record<string, unknown> = {}) =>
    service.call('POST', '/v1/payments/moneyout', { apiKey, body: moneyOutBody(overrides), headers: { 'idempotency-key': randomUUID() } });
  const usdc = async (apiKey: string) =>
    (await service.call('GET', '/v1/balances', { apiKey })).body.find((b: { currency: string }) => b.currency === 'USDC');

  it('holds at creation, moves in transit on acceptance and settles on success', async () => {
    const { apiKey } = await service.newTenant('100');
    expect(await usdc(apiKey)).toEqual({ currency: 'USDC', available: '100.000000', held: '0.000000', inTransit: '0.000000' });
    const res = await create(apiKey, { accountNumber: '254712343333' });
    expect(res.body.amountStablecoin).toBe('12.115416');
    const afterHold = await usdc(apiKey);
    expect(afterHold.available).toBe('87.884584');
    expect(['12.115416', '0.000000']).toContain(afterHold.held);
    await eventually(async () => ((await usdc(apiKey)).inTransit === '12.115416' ? true : undefined));
    expect(await usdc(apiKey)).toMatchObject({ available: '87.884584', held: '0.000000' });
    await reconcile(service);
  });

  it.each([
    ['0000', 'failed', '100.000000', { settled: '0.000000', refunded: '0.000000' }, { kind: 'release', from: 'held', to: 'available' }],
    ['1111', 'failed', '87.884584', { settled: '0.000000', refunded: '12.115416' }, { kind: 'return', from: 'in_transit', to: 'refunded' }],
    ['2222', 'refunded', '87.884584', { settled: '0.000000', refunded: '12.115416' }, { kind: 'return', from: 'in_transit', to: 'refunded' }],
    ['5678', 'succeeded', '87.884584', { settled: '12.115416', refunded: '0.000000' }, { kind: 'settle', from: 'in_transit', to: 'settled' }],
  ])('account ending %s: %s leaves available at %s with nothing held, and books the counter-accounts', async (magic, status, available, counter, last) => {
    const { apiKey, tenantId } = await service.newTenant('100');
    const res = await create(apiKey, { accountNumber: `25471234${magic}` });
    await eventually(async () => ((await service.call('GET', `/v1/payments/${res.body.id}`, { apiKey })).body.status === status ? true : undefined));
    expect(await usdc(apiKey)).toEqual({ currency: 'USDC', available, held: '0.000000', inTransit: '0.000000' });
    // Where the money went: paid out (settled) or given back (refunded, or available again when never sent).
    expect(await accountsOf(service, tenantId)).toEqual({
      // refund_pending holds live tenants' onchain refunds only: a sandbox tenant's stays at zero.
      available, held: '0.000000', in_transit: '0.000000', funding: '-100.000000', refund_pending: '0.000000', ...counter,
    });
    const txs = await service.call('GET', '/v1/balances/transactions?limit=2', { apiKey });
    expect(txs.body[0]).toMatchObject({ paymentId: res.body.id, amount: '12.115416', ...last });
    expect(txs.headers.get('link')).toMatch(/rel="next"/);
  });

  it('accepts a payment of exactly the available balance, leaving nothing available', async () => {
    const { apiKey, tenantId } = await service.newTenant('12.115416');
    const res = await create(apiKey, { accountNumber: '254712343333' });
    expect(res.status).toBe(201);
    expect(res.body.amountStablecoin).toBe('12.115416');
    expect((await usdc(apiKey)).available).toBe('0.000000');
    const accounts = await accountsOf(service, tenantId);
    expect(micro(accounts.held!) + micro(accounts.in_transit!)).toBe(12_115_416n);
    const more = await create(apiKey, { accountNumber: '254712343333' });
    expect([more.status, more.body.code]).toEqual([422, 'insufficient_balance']);
  });

  it('refuses a payment the balance does not cover, writing nothing', async () => {
    const { apiKey, tenantId } = await service.newTenant('10');
    const body = moneyOutBody();
    const res = await service.call('POST', '/v1/payments/moneyout', { apiKey, body, headers: { 'idempotency-key': randomUUID() } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ statusCode: 422, code: 'insufficient_balance', message: expect.any(String), details: { requestId: expect.any(String) } });
    const conn = service.database.orm.em.fork().getConnection();
    expect(await conn.execute('select id from payments where tenant_id = ?', [tenantId])).toEqual([]);
    expect(await conn.execute('select key from idempotency_keys where tenant_id = ?', [tenantId])).toEqual([]);
    expect((await usdc(apiKey)).available).toBe('10.000000');
  });

  it('lets exactly as many concurrent payments through as the balance covers', async () => {
    const { apiKey } = await service.newTenant('50');
    const results = await Promise.all(Array.from({ length: 10 }, () => create(apiKey, { accountNumber: '254712343333' })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(4);
    expect(results.filter((r) => r.status === 422 && r.body.code === 'insufficient_balance')).toHaveLength(6);
    const balance = await usdc(apiKey);
    expect(balance.available).toBe('1.538336');
    await reconcile(service);
  });

  it('spreads one tenant\'s concurrent holds over balance slots and posts each payment\'s moves in its hold\'s slot', async () => {
    const { apiKey, tenantId } = await service.newTenant('1000');
    const results = await Promise.all(Array.from({ length: 30 }, () => create(apiKey)));
    expect(results.every((r) => r.status === 201)).toBe(true);
    const ids = results.map((r) => r.body.id as string);
    await eventually(async () => {
      const rows = await service.call('GET', '/v1/balances', { apiKey });
      const b = rows.body.find((x: { currency: string }) => x.currency === 'USDC');
      return b.held === '0.000000' && b.inTransit === '0.000000' ? true : undefined;
    }, 20_000);
    const conn = service.database.orm.em.fork().getConnection();
    const slots = (await conn.execute(
      `select t.payment_id, t.kind, t.slot, a.slot as account_slot, a.kind as account_kind, e.amount::text as amount from ledger_transactions t
         join ledger_entries e on e.transaction_id = t.id join ledger_accounts a on a.id = e.account_id
        where t.payment_id in (?)`, [ids])) as { payment_id: string; kind: string; slot: number; account_slot: number; account_kind: string; amount: string }[];
    // Every entry of a payment's send and settle sits in the slot its hold credited; the send's debit
    // of held in that slot's debit row (slot + 16), never in a row a hold writes.
    const holdSlot = new Map(slots.filter((r) => r.kind === 'hold' && r.slot === r.account_slot).map((r) => [r.payment_id, r.slot]));
    expect(holdSlot.size).toBe(ids.length);
    for (const r of slots.filter((x) => x.kind !== 'hold')) {
      const own = holdSlot.get(r.payment_id)!;
      const debitOfHeld = r.account_kind === 'held' && r.amount.startsWith('-');
      expect([r.kind, r.account_kind, r.slot, r.account_slot]).toEqual([r.kind, r.account_kind, own, debitOfHeld ? own + 16 : own]);
    }
    expect(slots.filter((r) => r.account_kind === 'held' && r.account_slot >= 16 && !r.amount.startsWith('-'))).toEqual([]);
    expect(slots.filter((r) => r.kind === 'send' && r.account_kind === 'held')).toHaveLength(ids.length);
    expect(new Set(holdSlot.values()).size).toBeGreaterThan(1);
    expect((await usdc(apiKey)).available).toBe(new Decimal(1000).minus(new Decimal('12.115416').mul(30)).toFixed(6));
    expect(await conn.execute(`select slot from ledger_accounts where tenant_id = ? and kind = 'available' and balance < 0`, [tenantId])).toEqual([]);
    await reconcile(service);
  });

  it('refuses an unbalanced ledger transaction in the database itself', async () => {
    const em = service.database.orm.em.fork();
    const [account] = (await em.getConnection().execute('select id from ledger_accounts limit 1')) as { id: string }[];
    await expect(em.transactional(async (tem) => {
      await tem.execute(
        `insert into ledger_entries (transaction_id, account_id, amount, created_at) values ('ldg_bogus', ?, 5, now())`, [account!.id]);
    })).rejects.toThrow(/does not balance/);
    await expect(em.getConnection().execute('update ledger_entries set amount = 0 where id = (select min(id) from ledger_entries)'))
      .rejects.toThrow(/append-only/);
  });

  it('credits a deposit once per transaction hash', async () => {
    const { apiKey, tenantId } = await service.newTenant('0');
    const deposit = { currency: 'USDT' as const, amount: '25.5', blockchain: 'SOLANA' as const, txHash: solanaTxHash() };
    expect((await service.container.admin.recordDeposit(tenantId, deposit)).ok).toBe(true);
    const again = await service.container.admin.recordDeposit(tenantId, deposit);
    expect(again.ok ? 'ok' : again.code).toBe('duplicate_deposit');
    const usdt = (await service.call('GET', '/v1/balances', { apiKey })).body.find((b: { currency: string }) => b.currency === 'USDT');
    expect(usdt.available).toBe('25.500000');
    await reconcile(service);
  });
});

describe('provider results applied through applyMove', () => {
  // No payout worker anywhere on the database (the suite above has closed its service), so
  // applyMove's results are the only moves.
  let quiet: TestService;
  beforeAll(async () => {
    quiet = await startTestService({ WORKER_ENABLED: 'false', WEBHOOK_WORKER_ENABLED: 'false' });
  });
  afterAll(() => quiet.close());

  it('applies duplicated and reordered provider results once (random sequences, fixed seed)', async () => {
    const { apiKey, tenantId } = await quiet.newTenant('1000');
    const all: PaymentMove[] = ['accept', 'reject', 'complete', 'fail', 'refund'];
    let seed = 20261122;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      ids.push((await quiet.call('POST', '/v1/payments/moneyout', { apiKey, body: moneyOutBody(), headers: { 'idempotency-key': randomUUID() } })).body.id);
    }
    const plans = ids.map((id) => ({ id, moves: Array.from({ length: 8 }, () => all[Math.floor(random() * all.length)]!) }));
    // Each payment gets 8 results drawn at random, duplicates and impossible orders included, in two
    // bursts of 4 arriving all at once (every payment's burst concurrently with the others').
    const apply = (id: string, move: PaymentMove) =>
      applyMove(quiet.container.advanceDeps, id, move, { providerRef: `dup_${id}`, failure: { reason: 'x', code: 'declined' } }).then((result) => ({ move, result }));
    const burst = (part: 0 | 1) => Promise.all(plans.map(async ({ id, moves }) => Promise.all(moves.slice(part * 4, part * 4 + 4).map((m) => apply(id, m)))));
    const first = await burst(0);
    const second = await burst(1);
    const outcomes = plans.map(({ id }, i) => ({ id, results: [...first[i]!, ...second[i]!] }));
    await reconcile(quiet);
    const expected = { available: 1000_000_000n, held: 0n, in_transit: 0n, settled: 0n, refunded: 0n, refund_pending: 0n };
    const amount = 12_115_416n;
    const finals: string[] = [];
    for (const { id, results } of outcomes) {
      // Every refusal is the state table's: never a missing payment, never a fault.
      expect(results.filter(({ result }) => !result.ok && result.code !== 'invalid_transition')).toEqual([]);
      const applied = results.filter(({ result }) => result.ok).map(({ move, result }) => ({ move, status: result.ok ? result.value.status : undefined }));
      // Each applied result landed where the state table says.
      for (const a of applied) expect(a.status).toBe(PAYMENT_MOVES[a.move].to);
      // The applied moves are one path from initiated: none, reject, accept, or accept then one final move.
      const moves = applied.map((a) => a.move).sort();
      const path = moves.includes('reject') ? ['reject'] : moves.includes('accept') ? ['accept', ...moves.filter((m) => m !== 'accept')] : [];
      expect(moves).toEqual([...path].sort());
      expect(path.length).toBeLessThanOrEqual(2);
      const final = path.length === 0 ? 'initiated' : PAYMENT_MOVES[path.at(-1)! as PaymentMove].to;
      finals.push(final);
      expect((await quiet.call('GET', `/v1/payments/${id}`, { apiKey })).body.status).toBe(final);
      // A final payment has no next action left for the payout worker; one still moving has.
      const [row] = (await quiet.database.orm.em.fork().getConnection().execute(
        'select next_action_at from payments where id = ?', [id])) as { next_action_at: Date | null }[];
      expect([final, row!.next_action_at === null]).toEqual([final, !['initiated', 'provider_accepted'].includes(final)]);
      const rows = await quiet.database.orm.em.fork().getConnection().execute(
        'select kind from ledger_transactions where payment_id = ? order by kind', [id]);
      expect((rows as { kind: string }[]).map((r) => r.kind)).toEqual(['hold', ...path.map((m) => LEDGER_MOVES[m as PaymentMove].kind)].sort());
      const account = { initiated: 'held', provider_accepted: 'in_transit', succeeded: 'settled', failed: path[0] === 'reject' ? 'available' : 'refunded', refunded: 'refunded' }[final] as keyof typeof expected;
      expected.available -= amount;
      expected[account] += amount;
    }
    // The seed reaches every kind of ending, so the checks above are not vacuous.
    expect(new Set(finals)).toEqual(new Set(['provider_accepted', 'succeeded', 'failed', 'refunded']));
    const accounts = await accountsOf(quiet, tenantId);
    expect(accounts).toEqual({
      funding: '-1000.000000',
      refund_pending: '0.000000',
      ...Object.fromEntries(Object.entries(expected).map(([kind, units]) => [kind, fromMicro(units)])),
    });
  });
});
