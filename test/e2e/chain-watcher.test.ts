import { createHmac, randomUUID } from 'node:crypto';
import { DepositAddressRepository } from '../../src/adapters/persistence/deposit-address.repository';
import { assignAddress } from '../../src/core/deposits/deposit-addresses';
import { FakeChain, TestDeriver } from '../support/deposit-fakes';
import { startReceiver, type Receiver } from '../support/receiver';
import { eventually, startTestService, type TestService } from '../support/test-service';

const USDT = '0x55d398326f99059ff775485246999027b3197955';
const e18 = (n: number) => BigInt(n) * 10n ** 18n;

/**
 * The chain watcher loop over a scripted chain (docs/decisions.md § Onchain deposits: watchers),
 * the real service and PostgreSQL: detected, then credited at finality with its webhooks and ledger
 * transaction; dropped after a reorganisation; one active watcher per chain across two service
 * instances on one database, each deposit credited exactly once, repeated answers included.
 */
describe('chain watcher', () => {
  const chain = new FakeChain('BSC');
  const deriver = new TestDeriver(randomUUID());
  const supply = { chain: 'BSC' as const, reader: chain, deriver, keyId: `test-${randomUUID()}`, developmentKey: false };
  // A lease far longer than a pass: on a loaded machine (jest workers side by side) a renewal can be
  // late by a second, and a lease that lapses meanwhile lets the second instance watch too. No test
  // here waits for a lease to lapse: a stopping watcher gives its lease up.
  const env = { CHAIN_WATCH_INTERVAL_MS: '50', CHAIN_WATCH_LEASE_MS: '10000' };
  let service: TestService;
  let hook: Receiver;
  beforeAll(async () => {
    service = await startTestService(env, { chains: [supply] });
    await sql("delete from chain_watchers where blockchain = 'BSC'");
    hook = await startReceiver();
  });
  afterAll(async () => {
    await service.close();
    await hook.close();
  });

  const sql = async <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
    (await service.database.orm.em.fork().getConnection().execute(text, params)) as T[];
  const addressOf = async (tenantId: string) => (await assignAddress(
    { addresses: new DepositAddressRepository(service.database.orm.em), clock: service.container.clock },
    { chain: 'BSC', deriver, keyId: supply.keyId, tokens: [], serves: ['sandbox'] }, tenantId,
  )).address;
  const depositsOf = (tenantId: string) => sql<{ id: string; status: string; amount: string; remainder_units: string; transfer_index: number; ledger_transaction_id: string | null }>(
    'select id, status, amount::text, remainder_units::text, transfer_index, ledger_transaction_id from deposits where tenant_id = ? order by transfer_index', [tenantId]);
  const usdt = async (apiKey: string) =>
    (await service.call('GET', '/v1/balances', { apiKey })).body.find((b: { currency: string }) => b.currency === 'USDT').available as string;
  const deliveries = (entityId: string) => hook.received.map((r) => JSON.parse(r.body)).filter((e) => e.data.id === entityId);

  it('detects a deposit, credits it once final: deposit.detected then deposit.credited, signed, and one ledger transaction naming it', async () => {
    const { tenantId, apiKey } = await service.newTenant('0');
    const { secret } = (await service.call('POST', '/v1/webhooks/register', { apiKey, body: { url: hook.url, events: ['deposit.detected', 'deposit.credited', 'deposit.dropped'] } })).body;
    const to = await addressOf(tenantId);
    const block = chain.mine({ to, token: USDT, units: e18(12) + 345_678_901_234_567_890n });
    const [detected] = await eventually(async () => ((await depositsOf(tenantId)).length === 1 ? depositsOf(tenantId) : undefined));
    expect(detected).toMatchObject({ status: 'detected', amount: '12.345678', remainder_units: '901234567890', ledger_transaction_id: null });
    expect(await usdt(apiKey)).toBe('0.000000');

    chain.mine();
    chain.finalize();
    const [credited] = await eventually(async () => ((await depositsOf(tenantId))[0]?.status === 'credited' ? depositsOf(tenantId) : undefined));
    expect(await usdt(apiKey)).toBe('12.345678');
    const ledger = (await service.call('GET', '/v1/balances/transactions', { apiKey })).body;
    expect(ledger).toEqual([expect.objectContaining({ id: credited!.ledger_transaction_id, kind: 'deposit', amount: '12.345678', currency: 'USDT', txHash: `BSC:${block.transfers[0]!.txHash}` })]);

    await eventually(async () => (deliveries(detected!.id).length === 2 ? true : undefined));
    const sent = hook.received.filter((r) => JSON.parse(r.body).data.id === detected!.id);
    expect(sent.map((r) => JSON.parse(r.body)).map((e) => [e.type, e.data.status, e.data.txHash, e.data.index])).toEqual([
      ['deposit.detected', 'detected', block.transfers[0]!.txHash, 0], ['deposit.credited', 'credited', block.transfers[0]!.txHash, 0],
    ]);
    for (const r of sent) {
      const t = String(r.headers['webhook-timestamp']);
      expect(r.headers['service-signature']).toBe(`t=${t},v1=${createHmac('sha256', secret).update(`${t}.${r.body}`).digest('hex')}`);
    }
  });

  it('drops a detected deposit a reorganisation removed before finality: deposit.dropped, the balance never moved', async () => {
    const { tenantId, apiKey } = await service.newTenant('0');
    await service.call('POST', '/v1/webhooks/register', { apiKey, body: { url: hook.url } });
    const to = await addressOf(tenantId);
    const block = chain.mine({ to, token: USDT, units: e18(50) });
    await eventually(async () => ((await depositsOf(tenantId)).length === 1 ? true : undefined));
    chain.reorg(block.height);
    chain.mine();
    chain.finalize();
    const [dropped] = await eventually(async () => ((await depositsOf(tenantId))[0]?.status === 'dropped' ? depositsOf(tenantId) : undefined));
    await eventually(async () => (deliveries(dropped!.id).length === 2 ? true : undefined));
    expect(deliveries(dropped!.id).map((e) => e.type)).toEqual(['deposit.detected', 'deposit.dropped']);
    expect(await usdt(apiKey)).toBe('0.000000');
    expect(await sql('select count(*)::int as n from ledger_transactions where tenant_id = ?', [tenantId])).toEqual([{ n: 0 }]);
  });

  it('shows each watched chain on /readyz: heights, lag and whether a replica watches', async () => {
    chain.mine();
    chain.finalize();
    const { head } = await chain.heights();
    const ready = await eventually(async () => {
      const body = (await service.call('GET', '/readyz')).body;
      return body.chains?.[0]?.scannedTo === Number(head) ? body : undefined;
    });
    expect(ready).toEqual({
      status: 'ok', database: 'up', migrations: 'applied', screening: expect.any(Object),
      chains: [{ chain: 'BSC', head: Number(head), finalized: Number(head), scannedTo: Number(head), lagBlocks: 0, lagSeconds: expect.any(Number), watching: true }],
    });
    const admin = await service.newAdminKey();
    const metrics = await (await fetch(`${service.baseUrl}/metrics`, { headers: { authorization: `Bearer ${admin}` } })).text();
    expect(metrics).toMatch(new RegExp(`chain_head_height\\{chain="BSC"\\} ${ready.chains[0].head}\\b`));
    expect(metrics).toMatch(/chain_watcher_lag_blocks\{chain="BSC"\} 0\b/);
    expect(metrics).toMatch(/deposits_credited_total\{chain="BSC",currency="USDT"\} [1-9]/);
    expect(metrics).toMatch(/deposits_dropped_total\{chain="BSC",currency="USDT"\} [1-9]/);
  });

  it('two service instances on one database: one watches at a time, every deposit credited once, repeated answers too; the other takes over when it stops', async () => {
    const second = await startTestService(env, { chains: [supply] });
    try {
      chain.repeatAnswers = true;
      const tenants = await Promise.all(Array.from({ length: 3 }, () => service.newTenant('0')));
      const addresses = await Promise.all(tenants.map((t) => addressOf(t.tenantId)));
      chain.mine(...addresses.map((to, i) => ({ to, token: USDT, units: e18(i + 1), tx: 'batch' })));
      chain.mine(...addresses.map((to) => ({ to, token: USDT, units: e18(10) })));
      chain.finalize();
      const holding = () => [service, second].map((s) => s.container.chainWatchers[0]!.isHolding);
      await eventually(async () => ((await Promise.all(tenants.map((t) => usdt(t.apiKey)))).join() === '11.000000,12.000000,13.000000' ? true : undefined));
      expect(holding().filter(Boolean)).toHaveLength(1);

      // The holder stops (its lease given up): the other instance watches from the stored cursor.
      const [stopping, staying] = holding()[0] ? [service, second] : [second, service];
      await stopping.container.chainWatchers[0]!.stop();
      chain.mine(...addresses.map((to) => ({ to, token: USDT, units: e18(100) })));
      chain.finalize();
      await eventually(async () => ((await Promise.all(tenants.map((t) => usdt(t.apiKey)))).join() === '111.000000,112.000000,113.000000' ? true : undefined));
      expect(staying.container.chainWatchers[0]!.isHolding).toBe(true);
      for (const t of tenants) {
        expect((await depositsOf(t.tenantId)).map((d) => [d.status, d.amount])).toEqual(
          expect.arrayContaining([['credited', '10.000000'], ['credited', '100.000000']]));
        expect(await sql("select count(*)::int as n from ledger_transactions where tenant_id = ? and kind = 'deposit'", [t.tenantId])).toEqual([{ n: 3 }]);
      }
      if (stopping === service) service.container.chainWatchers[0]!.start();
    } finally {
      chain.repeatAnswers = false;
      await second.close();
    }
  });
});
