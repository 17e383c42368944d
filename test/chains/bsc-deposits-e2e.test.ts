/**
 * BSC deposits end to end (docs/decisions.md § Onchain deposits, docs/chains.md § BSC): the real
 * service configured by BSC_* variables only (the BSC adapter in CHAIN_ADAPTERS), its watcher
 * reading a real anvil through viem, PostgreSQL. anvil mines a block per transaction and the test
 * mines the rest, so finality (the `finalized` tag, head − 2) moves only when the test says.
 */
import { createHmac } from 'node:crypto';
import { startReceiver, type Receiver } from '../support/receiver';
import { eventually, startTestService, type TestService } from '../support/test-service';
import {
  available, bscAddressOf, depositLedger, depositsIn, depositsOf, forgetBscCursor, ONE, sql, startBscServiceFixture, type BscServiceFixture,
} from '../support/chains/bsc-service-fixture';

jest.setTimeout(60_000);

let f: BscServiceFixture;
let service: TestService;
let hook: Receiver;
let admin: string;
beforeAll(async () => {
  f = await startBscServiceFixture();
  service = await startTestService(f.env());
  await forgetBscCursor(service);
  hook = await startReceiver();
  admin = await service.newAdminKey();
}, 60_000);
afterAll(async () => {
  await service?.close();
  await hook?.close();
  await f?.stop();
});

/** A sandbox tenant with no funding, its webhook registered for deposit events, and its BSC address. */
async function tenant() {
  const t = await service.newTenant('0');
  const registered = await service.call('POST', '/v1/webhooks/register', {
    apiKey: t.apiKey, body: { url: hook.url, events: ['deposit.detected', 'deposit.credited', 'deposit.dropped'] },
  });
  expect(registered.status).toBe(201);
  return { ...t, secret: registered.body.secret as string, to: await bscAddressOf(service, t.apiKey) };
}
const events = (depositId: string) => hook.received.map((r) => ({ r, e: JSON.parse(r.body) })).filter(({ e }) => e.data.id === depositId);

describe('BSC deposits over anvil and the real service', () => {
  it('watches BSC from its variables alone: the watcher holds the lease and /readyz shows the chain', async () => {
    expect(service.container.chainWatchers.map((w) => w.chain)).toEqual(['BSC']);
    const { head } = await f.bsc.heights();
    const ready = await eventually(async () => {
      const body = (await service.call('GET', '/readyz')).body;
      return body.chains?.[0]?.head >= Number(head) ? body : undefined;
    });
    expect(ready.chains[0]).toMatchObject({ chain: 'BSC', watching: true });
  });

  it('detects a deposit, credits it once final: deposit.detected then deposit.credited, one ledger transaction naming it, the balance moved once', async () => {
    const t = await tenant();
    const mined = await f.bsc.transfer(f.usdt, f.senderIndex, t.to, 25n * ONE);
    const [detected] = await depositsIn(service, t.apiKey, 1, 'detected');
    expect(detected).toMatchObject({
      currency: 'USDT', token: f.usdt, amount: '25.000000', remainderUnits: '0', txHash: mined.hash, height: Number(mined.blockNumber),
      sender: f.sender, depositAddress: t.to, ledgerTransactionId: null,
    });
    expect(await available(service, t.apiKey, 'USDT')).toBe('0.000000');

    await f.bsc.mine(2);
    const [credited] = await depositsIn(service, t.apiKey, 1, 'credited');
    expect(credited!.id).toBe(detected!.id);
    expect(await available(service, t.apiKey, 'USDT')).toBe('25.000000');
    const ledger = (await service.call('GET', '/v1/balances/transactions', { apiKey: t.apiKey })).body;
    expect(ledger).toEqual([expect.objectContaining({
      id: credited!.ledgerTransactionId, kind: 'deposit', amount: '25.000000', currency: 'USDT', txHash: `BSC:${mined.hash}`,
    })]);

    await eventually(async () => (events(detected!.id).length === 2 ? true : undefined));
    const sent = events(detected!.id);
    expect(sent.map(({ e }) => [e.type, e.data.status, e.data.txHash])).toEqual([
      ['deposit.detected', 'detected', mined.hash], ['deposit.credited', 'credited', mined.hash],
    ]);
    for (const { r } of sent) {
      const ts = String(r.headers['webhook-timestamp']);
      expect(r.headers['service-signature']).toBe(`t=${ts},v1=${createHmac('sha256', t.secret).update(`${ts}.${r.body}`).digest('hex')}`);
    }
    // More blocks, more passes: nothing moves again.
    await f.bsc.mine(3);
    await eventually(async () => ((await f.bsc.heights()).head <= BigInt((await service.call('GET', '/readyz')).body.chains[0].scannedTo) ? true : undefined));
    expect(await depositLedger(service, t.tenantId)).toHaveLength(1);
    expect(await available(service, t.apiKey, 'USDT')).toBe('25.000000');
  });

  it('drops a detected deposit that a reorganisation removed before finality: deposit.dropped, the balance never moved', async () => {
    const t = await tenant();
    await f.bsc.transfer(f.usdc, f.senderIndex, t.to, 40n * ONE);
    const [detected] = await depositsIn(service, t.apiKey, 1, 'detected');
    // anvil_reorg: the block holding the transfer is replaced by an empty one, then finality passes it.
    await f.bsc.reorg(1);
    await f.bsc.mine(2);
    const [dropped] = await depositsIn(service, t.apiKey, 1, 'dropped');
    expect(dropped!.id).toBe(detected!.id);
    await eventually(async () => (events(detected!.id).length === 2 ? true : undefined));
    expect(events(detected!.id).map(({ e }) => e.type)).toEqual(['deposit.detected', 'deposit.dropped']);
    expect(await available(service, t.apiKey, 'USDC')).toBe('0.000000');
    expect(await depositLedger(service, t.tenantId)).toEqual([]);
  });

  it('drops a detected deposit reverted away (evm_snapshot / evm_revert) and credits the same transfer sent again as a new deposit', async () => {
    const t = await tenant();
    const snapshot = await f.bsc.snapshot();
    const first = await f.bsc.transfer(f.usdt, f.senderIndex, t.to, 7n * ONE);
    await depositsIn(service, t.apiKey, 1, 'detected');
    await f.bsc.revert(snapshot);
    // The chain grows past the old height without the transfer; then the sender pays again.
    await f.bsc.mine(3);
    const again = await f.bsc.transfer(f.usdt, f.senderIndex, t.to, 7n * ONE + 1n);
    await f.bsc.mine(2);
    const settled = await depositsIn(service, t.apiKey, 2, 'credited,dropped');
    const byHash = Object.fromEntries(settled.map((d) => [d.txHash, d.status]));
    expect(byHash).toEqual({ [first.hash]: 'dropped', [again.hash]: 'credited' });
    expect(await available(service, t.apiKey, 'USDT')).toBe('7.000000');
    expect(await depositLedger(service, t.tenantId)).toHaveLength(1);
  });

  it('two transfers in one transaction are two deposits; another token is a finding, never credited; 18 decimals credit exactly by the rule', async () => {
    const a = await tenant();
    const b = await tenant();
    const batch = await f.bsc.transferBatch(f.usdt, f.senderIndex, [
      { to: a.to, units: 12n * ONE + 345_678_901_234_567_890n },
      { to: a.to, units: 5n * ONE },
      { to: b.to, units: 3n * ONE },
    ]);
    const foreign = await f.bsc.transfer(f.other, f.senderIndex, a.to, 9n * ONE);
    await f.bsc.mine(2);
    const deposits = await depositsIn(service, a.apiKey, 2, 'credited');
    expect(deposits.map((d) => d.txHash)).toEqual([batch.hash, batch.hash]);
    // docs/decisions.md § Onchain deposits: amounts: floor to 6 places, the rest recorded as remainder units.
    expect([...deposits].sort((x, y) => x.index - y.index).map((d) => [d.amount, d.remainderUnits])).toEqual([
      ['12.345678', '901234567890'], ['5.000000', '0'],
    ]);
    expect(new Set(deposits.map((d) => d.ledgerTransactionId)).size).toBe(2);
    expect(await available(service, a.apiKey, 'USDT')).toBe('17.345678');
    expect(await depositsIn(service, b.apiKey, 1, 'credited')).toEqual([expect.objectContaining({ txHash: batch.hash, amount: '3.000000' })]);
    expect(await available(service, b.apiKey, 'USDT')).toBe('3.000000');

    const finding = await eventually(async () => {
      const all = (await service.call('GET', '/v1/admin/deposit-findings?limit=500', { apiKey: admin })).body as Array<{ tenantId: string; kind: string; txHash: string; token: string; units: string; decimals: number }>;
      return all.find((x) => x.tenantId === a.tenantId && x.kind === 'foreign_token');
    });
    expect(finding).toMatchObject({ txHash: foreign.hash, token: f.other, units: (9n * ONE).toString(), decimals: 18 });
    expect((await depositsOf(service, a.apiKey)).map((d) => d.token)).toEqual([f.usdt, f.usdt]);
    expect(await depositLedger(service, a.tenantId)).toHaveLength(2);
    expect(await sql(service, 'select count(*)::int as n from deposits where tx_hash = ?', [foreign.hash])).toEqual([{ n: 0 }]);
  });
});
