import type { WatchedToken } from '../../src/core/deposits/chain-ports';
import { scanChain, type ScanChainDeps } from '../../src/core/deposits/scan-chain';
import { ok } from '../../src/core/shared/result';
import { FakeChain, MemoryAddressRegistry, memoryDepositReader, TestDeriver } from '../support/deposit-fakes';
import { FixedClock, MemoryStore, SequentialIds } from '../support/fakes';

const USDT = '0x55d398326f99059ff775485246999027b3197955';
const USDC = '0x8ac76a51cc950d9822d68b83fe1ad97b32cd580d';
const OTHER = '0x000000000000000000000000000000000000beef';
const MINT_USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const TOKENS: WatchedToken[] = [
  { chain: 'BSC', currency: 'USDT', token: USDT, decimals: 18 },
  { chain: 'BSC', currency: 'USDC', token: USDC, decimals: 18 },
  { chain: 'SOLANA', currency: 'USDC', token: MINT_USDC, decimals: 6 },
];
/** `n` tokens of 18 decimals in base units. */
const e18 = (n: bigint | number) => BigInt(n) * 10n ** 18n;

/** One watcher pass over the in-memory ports (docs/decisions.md § Onchain deposits: watchers). */
describe('scanChain', () => {
  let clock: FixedClock;
  let store: MemoryStore;
  let registry: MemoryAddressRegistry;
  let deps: ScanChainDeps;
  let bsc: FakeChain;
  let sol: FakeChain;
  const deriver = new TestDeriver();

  beforeEach(() => {
    clock = new FixedClock();
    const ids = new SequentialIds();
    store = new MemoryStore(clock, ids);
    registry = new MemoryAddressRegistry();
    deps = { uow: store, clock, ids, deposits: memoryDepositReader(store), addresses: registry, tokens: TOKENS, keyId: 'test', holder: 'watcher-1' };
    bsc = new FakeChain('BSC');
    sol = new FakeChain('SOLANA');
  });

  const addressOf = async (tenantId: string, chain: 'BSC' | 'SOLANA' = 'BSC') => {
    const index = await registry.allocateIndex(chain);
    const address = deriver.addressAt(chain, index);
    await registry.insert({ tenantId, blockchain: chain, keyId: 'test', index, address, createdAt: clock.now() });
    return address;
  };
  const pass = async (reader = bsc) => {
    const report = await scanChain(deps, reader);
    if (!report.ok) throw new Error(report.message);
    return report.value;
  };
  const events = () => store.outbox.map((e) => `${e.type} ${e.entityId} ${String(e.payload.status)}`);
  const available = (tenantId: string, currency: 'USDC' | 'USDT' = 'USDT') => store.balance(tenantId, currency, 'available');

  it('detects a transfer, then credits it once its block is final: one ledger transaction naming the deposit', async () => {
    const to = await addressOf('ten_A');
    const block = bsc.mine({ to, token: USDT, units: e18(25) + e18(1) / 2n });
    const first = await pass();
    expect(first.detected.map((d) => [d.status, d.amount, d.remainderUnits, d.height, d.index])).toEqual([['detected', '25.500000', '0', 1n, 0]]);
    expect(available('ten_A')).toBe('0.000000');
    const id = first.detected[0]!.id;
    expect(events()).toEqual([`deposit.detected ${id} detected`]);

    bsc.finalize();
    const second = await pass();
    expect(second.credited.map((d) => d.id)).toEqual([id]);
    const [deposit] = store.deposits;
    expect(deposit).toMatchObject({ status: 'credited', creditedAt: clock.now(), txHash: block.transfers[0]!.txHash, sender: block.transfers[0]!.from, address: to });
    expect(store.transfers).toEqual([{
      id: deposit!.ledgerTransactionId, tenantId: 'ten_A', currency: 'USDT', from: 'funding', to: 'available', kind: 'deposit', amount: '25.500000',
      externalRef: `BSC:${block.transfers[0]!.txHash}`, transactionId: deposit!.ledgerTransactionId, at: clock.now(),
    }]);
    expect(events()).toEqual([`deposit.detected ${id} detected`, `deposit.credited ${id} credited`]);
    expect(store.outbox[1]!.payload).toMatchObject({ id, confirmations: 1, ledgerTransactionId: deposit!.ledgerTransactionId, creditedAt: clock.now().toISOString() });

    // Later passes change nothing.
    bsc.mine();
    bsc.finalize();
    expect(await pass()).toMatchObject({ detected: [], credited: [], dropped: [] });
    expect(store.transfers).toHaveLength(1);
    expect(available('ten_A')).toBe('25.500000');
  });

  it('two transfers in one transaction are two deposits (indexes 0 and 1), each credited', async () => {
    const to = await addressOf('ten_A');
    const other = await addressOf('ten_B');
    const block = bsc.mine({ to, token: USDT, units: e18(3), tx: 'x' }, { to: other, token: USDC, units: e18(4), tx: 'x' });
    bsc.finalize();
    const report = await pass();
    const hash = block.transfers[0]!.txHash;
    expect(block.transfers[1]!.txHash).toBe(hash);
    expect(report.credited.map((d) => [d.tenantId, d.currency, d.index, d.amount])).toEqual([['ten_A', 'USDT', 0, '3.000000'], ['ten_B', 'USDC', 1, '4.000000']]);
    expect(store.transfers.map((t) => t.externalRef)).toEqual([`BSC:${hash}`, `BSC:${hash}:1`]);
    expect([available('ten_A'), available('ten_B', 'USDC')]).toEqual(['3.000000', '4.000000']);
  });

  it('another token sent to a deposit address is a finding for operators, never credited', async () => {
    const to = await addressOf('ten_A');
    const block = bsc.mine({ to, token: OTHER, units: e18(1000) });
    bsc.finalize();
    const report = await pass();
    expect(report.findings.map((f) => [f.kind, f.tenantId, f.token, f.units, f.txHash])).toEqual([['foreign_token', 'ten_A', OTHER, e18(1000).toString(), block.transfers[0]!.txHash]]);
    expect(store.deposits).toEqual([]);
    expect(store.transfers).toEqual([]);
    expect(store.outbox).toEqual([]);
    await pass();
    expect(store.findings).toHaveLength(1);
  });

  it('credits 18-decimal amounts exactly by the rule: floor to 6 places, the rest recorded as remainder units', async () => {
    const to = await addressOf('ten_A');
    bsc.mine({ to, token: USDT, units: 1_234_567_890_123_456_789n });
    bsc.finalize();
    const [deposit] = (await pass()).credited;
    expect([deposit!.amount, deposit!.remainderUnits]).toEqual(['1.234567', '890123456789']);
    expect(store.transfers.map((t) => t.amount)).toEqual(['1.234567']);
    expect(available('ten_A')).toBe('1.234567');
  });

  it('an amount below the ledger\'s 6 places is dust and one at 10^15 is oversized: findings, never credited', async () => {
    const to = await addressOf('ten_A');
    bsc.mine({ to, token: USDT, units: 10n ** 12n - 1n }, { to, token: USDT, units: e18(10n ** 15n) }, { to, token: USDT, units: e18(10n ** 15n) - 1n });
    bsc.finalize();
    const report = await pass();
    expect(report.findings.map((f) => f.kind)).toEqual(['dust', 'oversized']);
    expect(report.credited.map((d) => d.amount)).toEqual(['999999999999999.999999']);
  });

  it('a repeated RPC answer and a rescan from the start credit once', async () => {
    const to = await addressOf('ten_A');
    bsc.repeatAnswers = true;
    bsc.mine({ to, token: USDT, units: e18(7) });
    bsc.finalize();
    expect((await pass()).credited).toHaveLength(1);
    store.cursors.delete('BSC');
    const rescan = await pass();
    expect(rescan).toMatchObject({ detected: [], credited: [] });
    expect(store.deposits).toHaveLength(1);
    expect(store.transfers).toHaveLength(1);
    expect(available('ten_A')).toBe('7.000000');
  });

  it('two passes at once credit once', async () => {
    const to = await addressOf('ten_A');
    bsc.mine({ to, token: USDT, units: e18(5) });
    bsc.finalize();
    const both = await Promise.all([scanChain(deps, bsc), scanChain(deps, bsc)]);
    expect(both.map((r) => r.ok)).toEqual([true, true]);
    expect(store.deposits.map((d) => d.status)).toEqual(['credited']);
    expect(store.transfers).toHaveLength(1);
  });

  it('a reorganisation before finality drops the deposit: deposit.dropped, and the balance never moved', async () => {
    const to = await addressOf('ten_A');
    bsc.mine({ to, token: USDT, units: e18(9) });
    bsc.mine();
    const [detected] = (await pass()).detected;
    bsc.reorg(1n);
    bsc.mine();
    bsc.finalize();
    const report = await pass();
    expect(report.dropped.map((d) => [d.id, d.status, d.droppedAt])).toEqual([[detected!.id, 'dropped', clock.now()]]);
    expect(events()).toEqual([`deposit.detected ${detected!.id} detected`, `deposit.dropped ${detected!.id} dropped`]);
    expect(store.outbox[1]!.payload).toMatchObject({ confirmations: null });
    expect(store.transfers).toEqual([]);
    expect(available('ten_A')).toBe('0.000000');
  });

  it('a deposit is not asked about before its height is final', async () => {
    const to = await addressOf('ten_A');
    bsc.mine({ to, token: USDT, units: e18(1) });
    bsc.mine();
    bsc.finalize(0n);
    await pass();
    expect(bsc.calls.presence).toBe(0);
    bsc.finalize(1n);
    expect((await pass()).credited).toHaveLength(1);
    expect(bsc.calls.presence).toBe(1);
  });

  it('the same transfer included again at another slot (Solana: same key) moves its detected row and is credited there once', async () => {
    const to = await addressOf('ten_S', 'SOLANA');
    sol.mine({ to, token: MINT_USDC, units: 2_500_000n });
    const [detected] = (await pass(sol)).detected;
    sol.reorg(1n, () => true, 2n);
    const moved = await pass(sol);
    expect(moved).toMatchObject({ detected: [], repositioned: 1 });
    expect(store.deposits[0]).toMatchObject({ id: detected!.id, status: 'detected', height: 3n });
    sol.finalize();
    sol.repeatAnswers = true;
    store.cursors.delete('SOLANA');
    const final = await pass(sol);
    expect(final.credited.map((d) => [d.id, d.amount, d.height])).toEqual([[detected!.id, '2.500000', 3n]]);
    expect(available('ten_S', 'USDC')).toBe('2.500000');
  });

  it('a dropped deposit the chain includes again elsewhere comes back detected, then is credited once', async () => {
    const to = await addressOf('ten_S', 'SOLANA');
    const block = sol.mine({ to, token: MINT_USDC, units: 1_000_000n });
    await pass(sol);
    sol.reorg(1n);
    sol.finalize();
    expect((await pass(sol)).dropped).toHaveLength(1);
    // Included again two slots later: the same signature and index.
    sol.reinclude(block.transfers[0]!, 3n);
    const back = await pass(sol);
    expect(back.detected.map((d) => [d.status, d.height, d.droppedAt])).toEqual([['detected', 3n, null]]);
    sol.finalize();
    const credited = await pass(sol);
    expect(credited.credited).toHaveLength(1);
    expect(events().map((e) => e.split(' ')[0])).toEqual(['deposit.detected', 'deposit.dropped', 'deposit.detected', 'deposit.credited']);
    expect(available('ten_S', 'USDC')).toBe('1.000000');
  });

  it('a dropped deposit answered again at the block it was dropped from (a stale answer) stays dropped', async () => {
    const to = await addressOf('ten_S', 'SOLANA');
    const block = sol.mine({ to, token: MINT_USDC, units: 1_000_000n });
    await pass(sol);
    sol.reorg(1n);
    sol.finalize();
    await pass(sol);
    const stale = {
      chain: sol.chain, heights: () => sol.heights(), presence: (t: Parameters<FakeChain['presence']>[0]) => sol.presence(t),
      scan: async () => ({ transfers: block.transfers, cursor: '1', scannedTo: 1n }),
    };
    expect(await pass(stale as unknown as FakeChain)).toMatchObject({ detected: [], repositioned: 0 });
    expect(store.deposits.map((d) => d.status)).toEqual(['dropped']);
  });

  it('a pass whose watcher lost the lease writes nothing: no deposit, no event, no cursor', async () => {
    const to = await addressOf('ten_A');
    bsc.mine({ to, token: USDT, units: e18(1) });
    store.leases.set('BSC', 'watcher-2');
    expect(await scanChain(deps, bsc)).toEqual({ ok: false, code: 'lease_lost', message: 'BSC watcher lease is held by another watcher' });
    expect([store.deposits, store.outbox, store.cursors.size]).toEqual([[], [], 0]);
  });

  it('with no deposit address yet it scans nothing but stores the heights', async () => {
    bsc.mineTo(5n);
    bsc.finalize(3n);
    const report = await pass();
    expect(report).toMatchObject({ scannedTo: null, caughtUp: true, detected: [] });
    expect(bsc.calls.scan).toBe(0);
    expect(store.cursors.get('BSC')).toEqual({ chain: 'BSC', cursor: null, scannedTo: null, head: 5n, finalized: 3n, heightsAt: clock.now(), caughtUpAt: clock.now() });
  });

  it('a scan that stops short of the head resumes from its cursor and says it is not caught up', async () => {
    const to = await addressOf('ten_A');
    bsc.maxRange = 2n;
    bsc.mine({ to, token: USDT, units: e18(1) });
    bsc.mineTo(4n);
    bsc.mine({ to, token: USDT, units: e18(2) });
    const first = await pass();
    expect([first.scannedTo, first.caughtUp, first.detected.length]).toEqual([2n, false, 1]);
    expect(store.cursors.get('BSC')).toMatchObject({ cursor: '2', caughtUpAt: null });
    clock.advance(1000);
    const second = await pass();
    expect([second.scannedTo, second.caughtUp]).toEqual([4n, false]);
    const third = await pass();
    expect([third.scannedTo, third.caughtUp, third.detected.map((d) => d.amount)]).toEqual([5n, true, ['2.000000']]);
    expect(store.cursors.get('BSC')!.caughtUpAt).toEqual(clock.now());
  });

  it('a final deposit whose ledger reference is already posted stays detected and is reported', async () => {
    const to = await addressOf('ten_A');
    const block = bsc.mine({ to, token: USDT, units: e18(1) });
    bsc.finalize();
    await store.transact(async (tx) => ok(await tx.ledger.post({
      tenantId: 'ten_A', currency: 'USDT', from: 'funding', to: 'available', kind: 'deposit', amount: '1', externalRef: `BSC:${block.transfers[0]!.txHash}`, at: clock.now(),
    })));
    const refused: string[] = [];
    const report = await scanChain({ ...deps, onLedgerRefused: (d) => refused.push(d.id) }, bsc);
    expect(report.ok && report.value.credited).toEqual([]);
    expect(store.deposits.map((d) => d.status)).toEqual(['detected']);
    expect(refused).toEqual([store.deposits[0]!.id]);
    expect(events()).toEqual([`deposit.detected ${store.deposits[0]!.id} detected`]);
  });

  it('throws on a reader fault, leaving the cursor where it was', async () => {
    await addressOf('ten_A');
    bsc.failure = new Error('every endpoint down');
    await expect(scanChain(deps, bsc)).rejects.toThrow('every endpoint down');
    expect(store.cursors.size).toBe(0);
  });
});
