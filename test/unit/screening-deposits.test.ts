import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseOfacSdn } from '../../src/adapters/providers/sanctions/ofac-sdn.parser';
import { SanctionsIndex } from '../../src/adapters/providers/sanctions/sanctions-index';
import type { WatchedToken } from '../../src/core/deposits/chain-ports';
import { scanChain, type ScanChainDeps } from '../../src/core/deposits/scan-chain';
import { clearReview, rejectReview, type ReviewDeps } from '../../src/core/screening/review-decisions';
import { FakeChain, MemoryAddressRegistry, memoryDepositReader, TestDeriver } from '../support/deposit-fakes';
import { FakeRouting, FixedClock, MemoryStore, ScriptedProvider, SequentialIds } from '../support/fakes';

const sdn = parseOfacSdn(readFileSync(path.join(__dirname, '../fixtures/screening/ofac-sdn.xml'), 'utf8'));
if (!sdn.ok) throw new Error('fixture must parse');
const screen = new SanctionsIndex([{ ...sdn.value, loadedAt: new Date() }], 0.92);

const USDT = '0x55d398326f99059ff775485246999027b3197955';
const MINT_USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const TOKENS: WatchedToken[] = [
  { chain: 'BSC', currency: 'USDT', token: USDT, decimals: 18 },
  { chain: 'SOLANA', currency: 'USDC', token: MINT_USDC, decimals: 6 },
];
/** Listed in the OFAC fixture (entry 90002, "ETH"), written with its EIP-55 capitals: compared case-insensitively. */
const LISTED_BSC = '0x7F367cC41522cE07553e823bf3be79A889DEbe1B';
/** Listed in the OFAC fixture (entry 90004, "SOL"): base58, compared exactly. */
const LISTED_SOLANA = '5FHwkrdxntdK24hgQU8qgBjn35Y1zwhz1GZwCkP2UJnM';

/**
 * Deposit senders screened at finality on in-memory ports (docs/decisions.md § Screening:
 * deposits): a final transfer from an OFAC-listed address is held (`deposit.held`, a review of kind
 * `deposit`), never credited; the review can only be rejected (`deposit.rejected`, still uncredited).
 */
describe('deposit sender screening', () => {
  let clock: FixedClock;
  let store: MemoryStore;
  let registry: MemoryAddressRegistry;
  let deps: ScanChainDeps;
  let reviewDeps: ReviewDeps;
  let held: string[];
  const deriver = new TestDeriver();

  beforeEach(() => {
    clock = new FixedClock();
    const ids = new SequentialIds();
    store = new MemoryStore(clock, ids);
    registry = new MemoryAddressRegistry();
    held = [];
    deps = {
      uow: store, clock, ids, deposits: memoryDepositReader(store), addresses: registry, tokens: TOKENS, keyId: 'test', holder: 'watcher-1',
      screen, onHeld: (d, hits) => held.push(`${d.id} ${hits.map((h) => h.entryId).join(',')}`),
    };
    const routing = new FakeRouting(new ScriptedProvider());
    reviewDeps = {
      uow: store, payments: {} as never, clock, ids, environments: routing,
      reviews: { find: async (id) => store.reviews.get(id), list: async () => [...store.reviews.values()] },
    };
  });

  const addressOf = async (tenantId: string, chain: 'BSC' | 'SOLANA') => {
    const index = await registry.allocateIndex(chain);
    const address = deriver.addressAt(chain, index);
    await registry.insert({ tenantId, blockchain: chain, keyId: 'test', index, address, createdAt: clock.now() });
    return address;
  };
  const pass = async (reader: FakeChain) => {
    const report = await scanChain(deps, reader);
    if (!report.ok) throw new Error(report.message);
    return report.value;
  };
  const events = () => store.outbox.map((e) => `${e.type} ${String(e.payload.status)}`);

  it.each([
    ['BSC (the Transfer log\'s from, any letter case)', 'BSC' as const, LISTED_BSC.toLowerCase(), USDT, 10n ** 19n, '90002', 'USDT' as const],
    ['Solana (the source token account\'s owner)', 'SOLANA' as const, LISTED_SOLANA, MINT_USDC, 10_000_000n, '90004', 'USDC' as const],
  ])('%s: a listed sender is detected as usual, then held at finality, never credited', async (_label, chain, from, token, units, entryId, currency) => {
    const reader = new FakeChain(chain);
    const to = await addressOf('ten_A', chain);
    reader.mine({ to, token, units, from });
    const first = await pass(reader);
    expect(first.detected).toHaveLength(1);
    const id = first.detected[0]!.id;
    reader.finalize();
    const second = await pass(reader);
    expect([second.credited, second.held.map((d) => d.id)]).toEqual([[], [id]]);
    expect(store.deposits[0]).toMatchObject({ id, status: 'held', ledgerTransactionId: null, creditedAt: null });
    expect(store.transfers).toEqual([]);
    expect(store.balance('ten_A', currency, 'available')).toBe('0.000000');
    expect(store.reviews.get(id)).toMatchObject({ subjectKind: 'deposit', subjectId: id, tenantId: 'ten_A', status: 'pending', hits: [{ kind: 'address', entryId }] });
    expect(events()).toEqual(['deposit.detected detected', 'deposit.held held']);
    expect(held).toEqual([`${id} ${entryId}`]);
    // Later passes leave it held: it is no longer detected, so it is never asked about again.
    reader.mine();
    reader.finalize();
    expect(await pass(reader)).toMatchObject({ credited: [], held: [], dropped: [] });
  });

  it('an unlisted sender is credited as before', async () => {
    const reader = new FakeChain('BSC');
    const to = await addressOf('ten_A', 'BSC');
    reader.mine({ to, token: USDT, units: 10n ** 19n, from: '0x1111111111111111111111111111111111111111' });
    await pass(reader);
    reader.finalize();
    expect((await pass(reader)).credited).toHaveLength(1);
    expect(store.reviews.size).toBe(0);
  });

  it('an exact listed address is never cleared; reject marks the deposit rejected with deposit.rejected, still uncredited', async () => {
    const reader = new FakeChain('BSC');
    const to = await addressOf('ten_A', 'BSC');
    reader.mine({ to, token: USDT, units: 10n ** 19n, from: LISTED_BSC.toLowerCase() });
    await pass(reader);
    reader.finalize();
    const id = (await pass(reader)).held[0]!.id;
    expect(await clearReview(reviewDeps, id, 'key_ops', 'looks fine')).toMatchObject({ ok: false, code: 'invalid_state' });
    const rejected = await rejectReview(reviewDeps, id, 'key_ops', 'Sender is OFAC-listed; funds reported and returned by hand');
    expect(rejected).toMatchObject({ ok: true, value: { subjectKind: 'deposit', status: 'rejected', decidedBy: 'key_ops', decidedAt: clock.now() } });
    expect(store.deposits[0]).toMatchObject({ id, status: 'rejected', ledgerTransactionId: null });
    expect(events()).toEqual(['deposit.detected detected', 'deposit.held held', 'deposit.rejected rejected']);
    expect(store.transfers).toEqual([]);
    expect(await rejectReview(reviewDeps, id, 'key_ops', 'again')).toMatchObject({ ok: false, code: 'invalid_state' });
  });
});
