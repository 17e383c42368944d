import { newTenant } from '../../src/core/auth/tenant';
import { fundSandboxTenant, recordDeposit } from '../../src/core/ledger/record-deposit';
import { base58Decode, canonicalTxHash } from '../../src/core/ledger/tx-hash';
import { err, ok } from '../../src/core/shared/result';
import type { LedgerStore } from '../../src/core/ledger/ledger';
import { FixedClock, MemoryStore, SequentialIds } from '../support/fakes';

/**
 * The ledger port posts unchecked transfers only (deposits, sandbox funding, refunds sent): a hold,
 * which must be covered, is posted with its payment by PaymentStore.create. `npm run typecheck`
 * fails on this line if the port takes a funds check again.
 */
const _noCheckedPost: Parameters<LedgerStore['post']>[0] = {
  tenantId: 'ten_A', currency: 'USDC', from: 'available', to: 'held', kind: 'hold', amount: '1', at: new Date(0),
  // @ts-expect-error requireFunds is no member of the transfers LedgerStore.post takes.
  requireFunds: true,
};
import { base58Encode } from '../support/tx-hashes';

const bytes = (n: number, fill = 7) => new Uint8Array(n).fill(fill);
const SOLANA = base58Encode(bytes(64));
const BSC = `0x${'Ab'.repeat(32)}`;

/** Transaction hashes in canonical form (docs/decisions.md § Ledger), pure. */
describe('canonicalTxHash', () => {
  it('lower-cases a BSC hash', () => {
    expect(canonicalTxHash('BSC', BSC)).toEqual(ok(BSC.toLowerCase()));
  });

  it.each(['', BSC.slice(0, -1), `${BSC}a`, BSC.slice(2), `0x${'g'.repeat(64)}`, ` ${BSC}`, `${BSC} `, `x${BSC}`])('refuses %p on BSC', (hash) => {
    expect(canonicalTxHash('BSC', hash)).toEqual(err('validation_error', 'txHash must be 0x followed by 64 hexadecimal digits on BSC', { field: 'txHash' }));
  });

  it('keeps a Solana signature of 64 bytes as given, leading zero bytes included', () => {
    expect(canonicalTxHash('SOLANA', SOLANA)).toEqual(ok(SOLANA));
    const zeros = base58Encode(Uint8Array.from([0, 0, ...bytes(62)]));
    expect(zeros.startsWith('11')).toBe(true);
    expect(canonicalTxHash('SOLANA', zeros)).toEqual(ok(zeros));
  });

  it.each([
    ['63 bytes', base58Encode(bytes(63))],
    ['65 bytes', base58Encode(bytes(65))],
    ['a character outside base58', `${SOLANA.slice(0, -1)}0`],
    ['over 88 characters', '1'.repeat(89)],
    ['empty', ''],
    ['surrounded by blanks', ` ${SOLANA}`],
  ])('refuses %s on SOLANA', (_name, hash) => {
    expect(canonicalTxHash('SOLANA', hash)).toEqual(err('validation_error', 'txHash must be a base58 transaction signature of 64 bytes on SOLANA', { field: 'txHash' }));
  });

  it('accepts exactly 88 characters when they decode to 64 bytes', () => {
    const longest = base58Encode(new Uint8Array(64).fill(255));
    expect(longest).toHaveLength(88);
    expect(canonicalTxHash('SOLANA', longest)).toEqual(ok(longest));
  });
});

describe('base58Decode', () => {
  it.each([
    ['', []], ['1', [0]], ['11', [0, 0]], ['2', [1]], ['z', [57]], ['21', [58]], ['5Q', [255]], ['5R', [1, 0]], ['15R', [0, 1, 0]],
  ])('decodes %p', (text, expected) => {
    expect([...base58Decode(text)!]).toEqual(expected);
  });

  it('round-trips random bytes', () => {
    const sample = Uint8Array.from([0, 3, 250, 17, 0, 99, 128, 255, 1]);
    expect([...base58Decode(base58Encode(sample))!]).toEqual([...sample]);
  });

  it.each(['0', 'O', 'I', 'l', '+', 'é'])('refuses %p', (char) => {
    expect(base58Decode(`2${char}`)).toBeUndefined();
  });
});

/** Deposits and sandbox funding on the in-memory ledger. */
describe('recordDeposit and fundSandboxTenant', () => {
  const clock = new FixedClock();
  let store: MemoryStore;
  let deps: { uow: MemoryStore; clock: FixedClock; ids: SequentialIds };
  beforeEach(() => {
    const ids = new SequentialIds();
    store = new MemoryStore(clock, ids);
    deps = { uow: store, clock, ids };
  });

  it('credits funding → available as one deposit transaction, recorded credited under its canonical hash and index 0', async () => {
    const r = await recordDeposit(deps, 'ten_A', { currency: 'USDT', amount: '25.5', blockchain: 'BSC', txHash: BSC });
    expect(r).toEqual(ok({ depositId: 'dep_00000000000000000000000001', currency: 'USDT', amount: '25.500000', txHash: BSC.toLowerCase(), index: 0 }));
    expect(store.deposits).toEqual([{
      id: 'dep_00000000000000000000000001', tenantId: 'ten_A', blockchain: 'BSC', txHash: BSC.toLowerCase(), index: 0, currency: 'USDT',
      amount: '25.500000', remainderUnits: '0', token: null, sender: null, address: null, height: null, blockHash: null, status: 'credited',
      source: 'operator', ledgerTransactionId: 'ldg_00000000000000000000000002', createdAt: clock.now(), creditedAt: clock.now(), droppedAt: null,
    }]);
    expect(store.transfers).toEqual([{
      id: 'ldg_00000000000000000000000002', tenantId: 'ten_A', currency: 'USDT', from: 'funding', to: 'available', kind: 'deposit',
      amount: '25.500000', externalRef: `BSC:${BSC.toLowerCase()}`, transactionId: 'ldg_00000000000000000000000002', at: clock.now(),
    }]);
    expect(store.outbox.map((e) => [e.type, e.entityId, e.payload.status, e.payload.source])).toEqual([['deposit.credited', 'dep_00000000000000000000000001', 'credited', 'operator']]);
    expect([store.balance('ten_A', 'USDT', 'available'), store.balance('ten_A', 'USDT', 'funding')]).toEqual(['25.500000', '-25.500000']);
  });

  it('credits another index of the same transaction as another deposit, its ledger reference carrying the index', async () => {
    await recordDeposit(deps, 'ten_A', { currency: 'USDC', amount: 1, blockchain: 'SOLANA', txHash: SOLANA });
    const second = await recordDeposit(deps, 'ten_B', { currency: 'USDC', amount: 2, blockchain: 'SOLANA', txHash: SOLANA, index: 3 });
    expect(second.ok && second.value.index).toBe(3);
    expect(store.transfers.map((t) => [t.tenantId, t.externalRef])).toEqual([['ten_A', `SOLANA:${SOLANA}`], ['ten_B', `SOLANA:${SOLANA}:3`]]);
  });

  it('refuses a key the chain watcher already detected, writing nothing', async () => {
    store.deposits.push({
      id: 'dep_W', tenantId: 'ten_W', blockchain: 'SOLANA', txHash: SOLANA, index: 0, currency: 'USDC', amount: '1.000000', remainderUnits: '0', token: 'm',
      sender: 's', address: 'a', height: 5n, blockHash: 'h', status: 'detected', source: 'chain', ledgerTransactionId: null, createdAt: clock.now(), creditedAt: null, droppedAt: null,
    });
    expect(await recordDeposit(deps, 'ten_A', { currency: 'USDC', amount: 1, blockchain: 'SOLANA', txHash: SOLANA }))
      .toEqual(err('duplicate_deposit', `Deposit ${SOLANA} on SOLANA was already recorded`));
    expect([store.deposits.length, store.transfers, store.outbox]).toEqual([1, [], []]);
  });

  it.each([[-1], [1.5], [2 ** 31]])('refuses index %p, writing nothing', async (index) => {
    expect(await recordDeposit(deps, 'ten_A', { currency: 'USDC', amount: 1, blockchain: 'SOLANA', txHash: SOLANA, index }))
      .toEqual(err('validation_error', 'index must be an integer from 0 to 2147483647', { field: 'index' }));
    expect(store.deposits).toEqual([]);
  });

  it('credits a hash once across tenants, in any letter case, writing nothing the second time', async () => {
    await recordDeposit(deps, 'ten_A', { currency: 'USDC', amount: 10, blockchain: 'BSC', txHash: BSC });
    const again = await recordDeposit(deps, 'ten_B', { currency: 'USDC', amount: 10, blockchain: 'BSC', txHash: BSC.toUpperCase().replace('0X', '0x') });
    expect(again).toEqual(err('duplicate_deposit', `Deposit ${BSC.toLowerCase()} on BSC was already recorded`));
    expect(store.deposits).toHaveLength(1);
    expect(store.balance('ten_B', 'USDC', 'available')).toBe('0.000000');
  });

  it('refuses when the ledger already holds the reference, rolling the register back', async () => {
    await store.transact(async (tx) => ok(await tx.ledger.post({
      tenantId: 'ten_A', currency: 'USDC', from: 'funding', to: 'available', kind: 'deposit', amount: '1', externalRef: `SOLANA:${SOLANA}`, at: clock.now(),
    })));
    expect(await recordDeposit(deps, 'ten_A', { currency: 'USDC', amount: 1, blockchain: 'SOLANA', txHash: SOLANA })).toEqual(err('duplicate_deposit', expect.any(String)));
    expect([store.deposits, store.outbox]).toEqual([[], []]);
  });

  it.each([['0', 'amount must be greater than 0'], ['1.0000001', 'amount allows at most 6 decimal places'], ['-1', 'amount must be a positive decimal number']])(
    'refuses amount %p, writing nothing', async (amount, message) => {
      expect(await recordDeposit(deps, 'ten_A', { currency: 'USDC', amount, blockchain: 'SOLANA', txHash: SOLANA })).toEqual(err('validation_error', message, { field: 'amount' }));
      expect(store.deposits).toEqual([]);
      expect(store.transfers).toEqual([]);
    });

  it('refuses a malformed hash before the amount', async () => {
    const r = await recordDeposit(deps, 'ten_A', { currency: 'USDC', amount: '0', blockchain: 'BSC', txHash: 'nope' });
    expect(r.ok ? 'ok' : r.details).toEqual({ field: 'txHash' });
  });

  const sandbox = newTenant({ id: 'ten_S', name: 'S', environment: 'sandbox', createdAt: new Date(0) });
  const live = newTenant({ id: 'ten_L', name: 'L', environment: 'live', createdAt: new Date(0) });

  it('funds a sandbox tenant with a sandbox_funding transaction and no hash', async () => {
    expect(await fundSandboxTenant(deps, sandbox, { currency: 'USDC', amount: 1000 })).toEqual(ok({ currency: 'USDC', amount: '1000.000000' }));
    expect(store.transfers).toEqual([expect.objectContaining({ tenantId: 'ten_S', from: 'funding', to: 'available', kind: 'sandbox_funding', amount: '1000.000000' })]);
    expect(store.transfers[0]!.externalRef).toBeUndefined();
  });

  it('never funds a live tenant, and refuses a bad amount', async () => {
    expect(await fundSandboxTenant(deps, live, { currency: 'USDC', amount: 1000 })).toEqual(err('forbidden', 'Only sandbox tenants can be funded without an onchain deposit'));
    expect((await fundSandboxTenant(deps, sandbox, { currency: 'USDC', amount: 'x' })).ok).toBe(false);
    expect(store.transfers).toEqual([]);
  });

  it('throws when the ledger does not post the funding (a fault, not an expected outcome)', async () => {
    const refusing = { ...deps, uow: { transact: (work: Parameters<MemoryStore['transact']>[0]) => store.transact((tx) => work({ ...tx, ledger: { post: async () => 'duplicate' as const } })) } };
    await expect(fundSandboxTenant(refusing as never, sandbox, { currency: 'USDC', amount: 1 })).rejects.toThrow('sandbox funding of ten_S was not posted: duplicate');
  });
});
