import { randomUUID } from 'node:crypto';
import { applyMove } from '../../src/core/payments/advance-payment';
import type { PaymentMove } from '../../src/core/payments/payment-state';
import { eventually, moneyOutBody, startTestService, type TestService } from '../support/test-service';
import { solanaTxHash } from '../support/tx-hashes';

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
  const negative = await conn.execute(`select id from ledger_accounts where kind <> 'funding' and balance < 0`);
  expect(negative).toEqual([]);
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
    ['0000', 'failed', '100.000000'],
    ['1111', 'failed', '87.884584'],
    ['2222', 'refunded', '87.884584'],
    ['5678', 'succeeded', '87.884584'],
  ])('account ending %s: %s leaves available at %s with nothing held', async (magic, status, available) => {
    const { apiKey } = await service.newTenant('100');
    const res = await create(apiKey, { accountNumber: `25471234${magic}` });
    await eventually(async () => ((await service.call('GET', `/v1/payments/${res.body.id}`, { apiKey })).body.status === status ? true : undefined));
    expect(await usdc(apiKey)).toEqual({ currency: 'USDC', available, held: '0.000000', inTransit: '0.000000' });
    const txs = await service.call('GET', '/v1/balances/transactions?limit=2', { apiKey });
    expect(txs.body[0]).toMatchObject({ paymentId: res.body.id, amount: '12.115416' });
    expect(txs.headers.get('link')).toMatch(/rel="next"/);
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

  it('applies duplicated and reordered provider results once (random sequences, fixed seed)', async () => {
    const { apiKey } = await service.newTenant('1000');
    const deps = service.container.advanceDeps;
    const all: PaymentMove[] = ['accept', 'reject', 'complete', 'fail', 'refund'];
    let seed = 20261122;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push((await create(apiKey, { accountNumber: '254712343333' })).body.id);
    // Each payment gets 8 results drawn at random, duplicates and impossible orders included, all at once.
    await Promise.all(ids.flatMap((id) => Array.from({ length: 8 }, () =>
      applyMove(deps, id, all[Math.floor(random() * all.length)]!, { providerRef: `dup_${id}`, failureReason: 'x' }))));
    await reconcile(service);
    const balance = await usdc(apiKey);
    expect(Number(balance.available) + Number(balance.held) + Number(balance.inTransit)).toBeLessThanOrEqual(1000);
    for (const id of ids) {
      const rows = await service.database.orm.em.fork().getConnection().execute(
        'select kind from ledger_transactions where payment_id = ? order by created_at, kind', [id]);
      const kinds = (rows as { kind: string }[]).map((r) => r.kind);
      expect(kinds[0]).toBe('hold');
      expect(new Set(kinds).size).toBe(kinds.length);
      expect(kinds.length).toBeLessThanOrEqual(3);
    }
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
