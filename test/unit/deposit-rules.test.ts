import { matchesDepositUpdated } from '../../src/adapters/graphql/graphql-context';
import { DEPOSIT_MOVES, DEPOSIT_STATUSES, depositExternalRef, toDepositView, transition, type Deposit } from '../../src/core/deposits/deposit';
import { CEILING_MICROS, creditedAmount, formatMicros } from '../../src/core/deposits/deposit-amount';
import { assignAddress, listDepositAddresses, type ChainDepositSetup } from '../../src/core/deposits/deposit-addresses';
import { getDeposit, listDeposits } from '../../src/core/deposits/list-deposits';
import { err, ok } from '../../src/core/shared/result';
import { MemoryAddressRegistry, memoryDepositReader, TestDeriver } from '../support/deposit-fakes';
import { FixedClock, MemoryStore, SequentialIds } from '../support/fakes';

/** The amount rule (docs/decisions.md § Onchain deposits: amounts). */
describe('creditedAmount', () => {
  it.each([
    [1_234_567_890_123_456_789n, 18, '1.234567', 1_234_567n, 890_123_456_789n],
    [10n ** 18n, 18, '1.000000', 1_000_000n, 0n],
    [10n ** 12n - 1n, 18, '0.000000', 0n, 10n ** 12n - 1n],
    [10n ** 12n, 18, '0.000001', 1n, 0n],
    [2_500_000n, 6, '2.500000', 2_500_000n, 0n],
    [0n, 6, '0.000000', 0n, 0n],
    [123n, 2, '1.230000', 1_230_000n, 0n],
    [7n, 0, '7.000000', 7_000_000n, 0n],
    [1_234_567n, 7, '0.123456', 123_456n, 7n],
    [10n ** 77n, 77, '1.000000', 1_000_000n, 0n],
  ])('%p units of a %p-decimal token: %p credited, remainder as recorded', (units, decimals, amount, micros, remainder) => {
    expect(creditedAmount(units, decimals)).toEqual({ amount, micros, remainderUnits: remainder });
  });

  it('never credits more than arrived: credited × 10^(decimals − 6) + remainder = units', () => {
    for (const units of [1n, 999_999_999_999n, 123_456_789_012_345_678_901_234n]) {
      const { micros, remainderUnits } = creditedAmount(units, 18);
      expect(micros * 10n ** 12n + remainderUnits).toBe(units);
    }
  });

  it.each([[-1n, 6], [1n, -1], [1n, 78], [1n, 6.5]])('throws for %p units with %p decimals (a reader bug)', (units, decimals) => {
    expect(() => creditedAmount(units, decimals)).toThrow();
  });

  it('formats millionths at scale 6 and knows the ceiling', () => {
    expect([formatMicros(0n), formatMicros(1n), formatMicros(1_000_000n), formatMicros(123_456_789n)]).toEqual(['0.000000', '0.000001', '1.000000', '123.456789']);
    expect(formatMicros(CEILING_MICROS)).toBe('1000000000000000.000000');
  });
});

/** The deposit states as data (docs/decisions.md § Onchain deposits). */
describe('deposit transition', () => {
  it('moves detected to credited, dropped or held, a dropped deposit back to detected, a held one to rejected; nothing else', () => {
    const table = DEPOSIT_STATUSES.flatMap((from) => (Object.keys(DEPOSIT_MOVES) as (keyof typeof DEPOSIT_MOVES)[]).map((move) => [from, move, transition(from, move) ?? null]));
    expect(table.filter(([, , to]) => to !== null)).toEqual([
      ['detected', 'credit', 'credited'], ['detected', 'drop', 'dropped'], ['detected', 'hold', 'held'],
      ['dropped', 'reappear', 'detected'], ['held', 'reject', 'rejected'],
    ]);
    // Credited and rejected are final: no move starts there.
    expect(table.filter(([from, , to]) => (from === 'credited' || from === 'rejected') && to !== null)).toEqual([]);
    expect(Object.fromEntries(Object.entries(DEPOSIT_MOVES).map(([m, r]) => [m, r.event]))).toEqual({
      credit: 'deposit.credited', drop: 'deposit.dropped', reappear: 'deposit.detected', hold: 'deposit.held', reject: 'deposit.rejected',
    });
  });
});

const at = new Date('2026-03-01T10:00:00.000Z');
const deposit = (over: Partial<Deposit> = {}): Deposit => ({
  id: 'dep_1', tenantId: 'ten_A', blockchain: 'BSC', txHash: `0x${'a'.repeat(64)}`, index: 0, currency: 'USDT', amount: '1.000000', remainderUnits: '5',
  token: '0xt', sender: '0xs', address: '0xA', height: 100n, blockHash: '0xb', status: 'detected', source: 'chain', ledgerTransactionId: null,
  createdAt: at, creditedAt: null, droppedAt: null, ...over,
});

describe('toDepositView and depositExternalRef', () => {
  it('counts confirmations against the head, its own block included; none when dropped, unknown or not from the chain', () => {
    expect([99n, 100n, 105n].map((head) => toDepositView(deposit(), head).confirmations)).toEqual([0, 1, 6]);
    expect(toDepositView(deposit(), undefined).confirmations).toBeNull();
    expect(toDepositView(deposit({ status: 'dropped', droppedAt: at }), 105n)).toMatchObject({ confirmations: null, droppedAt: at.toISOString() });
    expect(toDepositView(deposit({ height: null, source: 'operator' }), 105n)).toMatchObject({ confirmations: null, height: null });
  });

  it('is the deposit as the API shows it', () => {
    expect(toDepositView(deposit({ status: 'credited', creditedAt: at, ledgerTransactionId: 'ldg_1' }), 101n)).toEqual({
      id: 'dep_1', blockchain: 'BSC', currency: 'USDT', token: '0xt', amount: '1.000000', remainderUnits: '5', sender: '0xs', depositAddress: '0xA',
      txHash: `0x${'a'.repeat(64)}`, index: 0, height: 100, confirmations: 2, status: 'credited', source: 'chain', ledgerTransactionId: 'ldg_1',
      createdAt: at.toISOString(), creditedAt: at.toISOString(), droppedAt: null,
    });
  });

  it('names the ledger reference <chain>:<hash> for index 0 (the corrections\' form) and adds the index otherwise', () => {
    expect(depositExternalRef({ blockchain: 'SOLANA', txHash: 'sig', index: 0 })).toBe('SOLANA:sig');
    expect(depositExternalRef({ blockchain: 'BSC', txHash: '0xh', index: 12 })).toBe('BSC:0xh:12');
  });
});

describe('deposit addresses', () => {
  const clock = new FixedClock();
  const deriver = new TestDeriver();
  const tokens = [
    { chain: 'BSC' as const, currency: 'USDT' as const, token: '0xusdt', decimals: 18 },
    { chain: 'BSC' as const, currency: 'USDC' as const, token: '0xusdc', decimals: 18 },
    { chain: 'SOLANA' as const, currency: 'USDC' as const, token: 'MintC', decimals: 6 },
  ];
  const environments = { environmentOf: async (id: string) => ({ ten_S: 'sandbox' as const, ten_L: 'live' as const })[id as 'ten_S' | 'ten_L'] };
  const chains: ChainDepositSetup[] = [
    { chain: 'BSC', deriver, keyId: 'dev', tokens: tokens.filter((t) => t.chain === 'BSC'), serves: ['sandbox'] },
    { chain: 'SOLANA', deriver, keyId: 'prod', tokens: tokens.filter((t) => t.chain === 'SOLANA'), serves: ['sandbox', 'live'] },
  ];

  it('assigns one address per tenant and chain on first read, the same forever, one entry per token', async () => {
    const addresses = new MemoryAddressRegistry();
    const deps = { addresses, chains, environments, clock };
    const first = await listDepositAddresses(deps, 'ten_S');
    const bsc = deriver.addressAt('BSC', 0);
    const sol = deriver.addressAt('SOLANA', 0);
    expect(first).toEqual([
      { blockchain: 'BSC', currency: 'USDT', address: bsc, ownerAddress: bsc, token: '0xusdt' },
      { blockchain: 'BSC', currency: 'USDC', address: bsc, ownerAddress: bsc, token: '0xusdc' },
      { blockchain: 'SOLANA', currency: 'USDC', address: deriver.paymentAddress('SOLANA', 'USDC', sol), ownerAddress: sol, token: 'MintC' },
    ]);
    expect(await listDepositAddresses(deps, 'ten_S')).toEqual(first);
    expect(addresses.rows.map((r) => [r.tenantId, r.blockchain, r.keyId, r.index])).toEqual([['ten_S', 'BSC', 'dev', 0], ['ten_S', 'SOLANA', 'prod', 0]]);
  });

  it('gives a live tenant no address under the development key, and an unknown tenant none at all', async () => {
    const addresses = new MemoryAddressRegistry();
    const deps = { addresses, chains, environments, clock };
    expect((await listDepositAddresses(deps, 'ten_L')).map((v) => v.blockchain)).toEqual(['SOLANA']);
    expect(await listDepositAddresses(deps, 'ten_X')).toEqual([]);
  });

  it('two first reads at once store one address; the other index is burnt, never reused', async () => {
    const addresses = new MemoryAddressRegistry();
    const setup = chains[0]!;
    const [a, b] = await Promise.all([assignAddress({ addresses, clock }, setup, 'ten_S'), assignAddress({ addresses, clock }, setup, 'ten_S')]);
    expect(a).toEqual(b);
    expect(addresses.rows).toHaveLength(1);
    const next = await assignAddress({ addresses, clock }, setup, 'ten_T');
    expect(next.index).toBe(2);
  });

  it('refuses an index outside BIP-32\'s non-hardened range', async () => {
    const addresses = new MemoryAddressRegistry();
    addresses.allocateIndex = async () => 2 ** 31;
    await expect(assignAddress({ addresses, clock }, chains[0]!, 'ten_S')).rejects.toThrow('BSC deposit address index 2147483648 is out of range');
  });
});

describe('listDeposits and getDeposit', () => {
  const clock = new FixedClock();
  const store = new MemoryStore(clock, new SequentialIds());
  store.deposits.push(deposit(), deposit({ id: 'dep_2', createdAt: new Date(at.getTime() + 1), currency: 'USDC' }), deposit({ id: 'dep_3', tenantId: 'ten_B' }));
  store.cursors.set('BSC', { chain: 'BSC', cursor: '1', scannedTo: 101n, head: 102n, finalized: 100n, heightsAt: at, caughtUpAt: at });
  const deps = { deposits: memoryDepositReader(store) };

  it('lists the tenant\'s deposits newest first with confirmations against the watcher\'s head', async () => {
    const page = await listDeposits(deps, 'ten_A', { limit: 1 });
    expect(page.ok && page.value.entries.map((d) => [d.id, d.confirmations])).toEqual([['dep_2', 3]]);
    expect(page.ok && page.value.nextCursor).toBe('dep_2');
    const filtered = await listDeposits(deps, 'ten_A', { limit: 10, filter: { currency: ['USDT'] } });
    expect(filtered.ok && filtered.value.entries.map((d) => d.id)).toEqual(['dep_1']);
  });

  it.each([[0], [101], [1.5]])('refuses limit %p', async (limit) => {
    expect(await listDeposits(deps, 'ten_A', { limit })).toEqual(err('validation_error', 'limit must be an integer from 1 to 100', { field: 'limit' }));
  });

  it('refuses an empty time range and a cursor it did not issue', async () => {
    expect(await listDeposits(deps, 'ten_A', { limit: 5, filter: { createdFrom: at, createdTo: at } }))
      .toEqual(err('validation_error', 'createdFrom must be before createdTo', { field: 'createdFrom' }));
    expect(await listDeposits(deps, 'ten_A', { limit: 5, cursor: 'nope' })).toEqual(err('validation_error', 'cursor is not valid', { field: 'cursor' }));
  });

  it('reads one deposit of the tenant; another tenant\'s is not found', async () => {
    expect(await getDeposit(deps, 'ten_A', 'dep_1')).toEqual(ok(toDepositView(deposit(), 102n)));
    expect(await getDeposit(deps, 'ten_A', 'dep_3')).toEqual(err('not_found', 'Deposit not found'));
  });
});

describe('matchesDepositUpdated', () => {
  const view = toDepositView(deposit(), 100n);
  it('passes a view by deposit id and status when given, every view otherwise', () => {
    expect([
      matchesDepositUpdated({}, view), matchesDepositUpdated({ depositId: null, status: null }, view), matchesDepositUpdated({ status: [] }, view),
      matchesDepositUpdated({ depositId: 'dep_1' }, view), matchesDepositUpdated({ depositId: 'dep_2' }, view),
      matchesDepositUpdated({ status: ['detected', 'dropped'] }, view), matchesDepositUpdated({ status: ['credited'] }, view),
      matchesDepositUpdated({ depositId: 'dep_1', status: ['credited'] }, view),
    ]).toEqual([true, true, true, true, false, true, false, false]);
  });
});
