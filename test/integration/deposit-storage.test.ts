import { MikroORM } from '@mikro-orm/postgresql';
import { randomBytes } from 'node:crypto';
import { ormOptions } from '../../src/adapters/persistence/mikro-orm.config';
import { ChainWatchRepository } from '../../src/adapters/persistence/chain-watch.repository';
import { DepositAddressRepository } from '../../src/adapters/persistence/deposit-address.repository';
import { DepositReadRepository } from '../../src/adapters/persistence/deposit.repository';
import { DepositTxStore } from '../../src/adapters/persistence/deposit.store';
import type { Deposit } from '../../src/core/deposits/deposit';
import { bscTxHash, solanaTxHash } from '../support/tx-hashes';

/**
 * The deposit tables on real PostgreSQL (docs/decisions.md § Onchain deposits): the register's key
 * (blockchain, hash, index), guarded moves, the watcher lease and cursor, and the address registry.
 */
describe('deposit storage', () => {
  let orm: MikroORM;
  beforeAll(async () => {
    orm = await MikroORM.init(ormOptions(process.env.TEST_DATABASE_URL!, 4));
  });
  afterAll(() => orm.close(true));

  const tenant = () => `ten_${randomBytes(13).toString('hex').toUpperCase().slice(0, 26)}`;
  const id = (prefix: string) => `${prefix}_${randomBytes(13).toString('hex').toUpperCase().slice(0, 26)}`;
  const detected = (over: Partial<Deposit> = {}): Deposit => ({
    id: id('dep'), tenantId: tenant(), blockchain: 'BSC', txHash: bscTxHash(), index: 0, currency: 'USDT', amount: '1.500000', remainderUnits: '123456789012',
    token: '0x55d398326f99059ff775485246999027b3197955', sender: '0x00000000000000000000000000000000000051e4', address: '0xAbC0000000000000000000000000000000000001',
    height: 12_345_678_901n, blockHash: `0x${'b'.repeat(64)}`, status: 'detected', source: 'chain', ledgerTransactionId: null,
    createdAt: new Date('2026-11-27T10:00:00.000Z'), creditedAt: null, droppedAt: null, ...over,
  });
  const inTx = <T>(work: (store: DepositTxStore) => Promise<T>) => orm.em.fork().transactional((em) => work(new DepositTxStore(em)));
  const reader = () => new DepositReadRepository(orm.em);

  it('keeps one row per (blockchain, hash, index): another index of the hash is another deposit, the same key writes nothing', async () => {
    const first = detected();
    expect(await inTx((s) => s.insert(first))).toBe('inserted');
    expect(await inTx((s) => s.insert({ ...first, id: id('dep'), tenantId: tenant() }))).toBe('duplicate');
    expect(await inTx((s) => s.insert({ ...first, id: id('dep'), index: 1 }))).toBe('inserted');
    expect(await inTx((s) => s.insert({ ...first, id: id('dep'), blockchain: 'SOLANA', txHash: solanaTxHash() }))).toBe('inserted');
    const found = await reader().findByKeys('BSC', [{ txHash: first.txHash, index: 0 }, { txHash: first.txHash, index: 1 }, { txHash: first.txHash, index: 2 }]);
    expect(found.map((d) => d.index).sort()).toEqual([0, 1]);
    expect(found.find((d) => d.index === 0)).toEqual(first);
  });

  it('reads back exactly what it wrote, 78-digit remainders and heights beyond 2^53 included', async () => {
    const big = detected({ remainderUnits: '9'.repeat(78), height: 2n ** 62n });
    await inTx((s) => s.insert(big));
    expect(await reader().findForTenant(big.tenantId, big.id)).toEqual(big);
    expect(await reader().findForTenant(tenant(), big.id)).toBeUndefined();
  });

  it('moves a deposit only from the status and position it is guarded by', async () => {
    const d = detected();
    await inTx((s) => s.insert(d));
    const at = { height: d.height!, blockHash: d.blockHash! };
    expect(await inTx((s) => s.move(d.id, 'detected', { height: 7n }, { height: 1n, blockHash: d.blockHash! }))).toBeUndefined();
    expect(await inTx((s) => s.move(d.id, 'dropped', { status: 'detected' }))).toBeUndefined();
    const credited = await inTx(async (s) => {
      // A ledger transaction must exist for the credited row's unique ledger id to mean anything; the check wants one named.
      return s.move(d.id, 'detected', { status: 'credited', creditedAt: new Date('2026-11-27T11:00:00.000Z'), ledgerTransactionId: id('ldg') }, at);
    });
    expect(credited).toMatchObject({ status: 'credited', creditedAt: new Date('2026-11-27T11:00:00.000Z') });
    expect(await inTx((s) => s.move(d.id, 'detected', { status: 'dropped', droppedAt: new Date() }, at))).toBeUndefined();
  });

  it('refuses rows that break the rules: credited without a ledger transaction, a chain row without its coordinates, a hash not canonical', async () => {
    await expect(inTx((s) => s.insert(detected({ status: 'credited', creditedAt: new Date() })))).rejects.toThrow(/deposits_credited_check/);
    await expect(inTx((s) => s.insert(detected({ blockHash: null })))).rejects.toThrow(/deposits_chain_coordinates_check/);
    await expect(inTx((s) => s.insert(detected({ txHash: `0x${'A'.repeat(64)}` })))).rejects.toThrow(/deposits_tx_hash_canonical_check/);
    await expect(inTx((s) => s.insert(detected({ status: 'dropped' })))).rejects.toThrow(/deposits_dropped_check/);
  });

  it('lists detected deposits at or below a height, lowest first, after a position', async () => {
    const chainTx = solanaTxHash();
    const rows = [5n, 3n, 9n, 3n].map((height, index) => detected({ blockchain: 'SOLANA', txHash: chainTx, index, height, blockHash: 'h' }));
    for (const row of rows) await inTx((s) => s.insert(row));
    const mine = (ds: Deposit[]) => ds.filter((d) => d.txHash === chainTx).map((d) => [d.height, d.index]);
    const due = await reader().detectedUpTo('SOLANA', 5n, 100);
    const lowThree = [...rows].filter((r) => r.height! <= 5n).sort((a, b) => Number(a.height! - b.height!) || (a.id < b.id ? -1 : 1));
    expect(mine(due)).toEqual(lowThree.map((d) => [d.height, d.index]));
    const after = await reader().detectedUpTo('SOLANA', 5n, 100, { height: lowThree[0]!.height!, id: lowThree[0]!.id });
    expect(mine(after)).toEqual(lowThree.slice(1).map((d) => [d.height, d.index]));
  });

  it('gives a chain\'s lease to one holder at a time, by PostgreSQL\'s clock; only the holder stores the cursor', async () => {
    const leases = new ChainWatchRepository(orm.em);
    await orm.em.fork().getConnection().execute("delete from chain_watchers where blockchain = 'BSC'");
    expect(await leases.acquire('BSC', 'replica-a', 60_000)).toBe(true);
    expect(await leases.acquire('BSC', 'replica-b', 60_000)).toBe(false);
    expect(await leases.acquire('BSC', 'replica-a', 60_000)).toBe(true);
    const cursor = { chain: 'BSC' as const, cursor: '42', scannedTo: 42n, head: 50n, finalized: 47n, heightsAt: new Date('2026-11-27T10:00:00.000Z'), caughtUpAt: null };
    expect(await inTx((s) => s.saveCursor(cursor, 'replica-b'))).toBe('lease_lost');
    expect(await reader().cursorOf('BSC')).toBeUndefined();
    expect(await inTx((s) => s.saveCursor(cursor, 'replica-a'))).toBe('saved');
    expect(await reader().cursorOf('BSC')).toEqual(cursor);
    expect((await reader().heads()).get('BSC')).toBe(50n);
    await leases.release('BSC', 'replica-a');
    expect(await leases.acquire('BSC', 'replica-b', 1)).toBe(true);
    await new Promise((r) => setTimeout(r, 20));
    expect(await leases.acquire('BSC', 'replica-a', 60_000)).toBe(true);
    expect((await leases.statuses()).find((s) => s.chain === 'BSC')).toMatchObject({ head: 50n, scannedTo: 42n, leaseHolder: 'replica-a' });
  });

  it('draws derivation indexes that are never drawn again, and keeps an address to one tenant', async () => {
    const registry = new DepositAddressRepository(orm.em);
    const drawn = await Promise.all(Array.from({ length: 20 }, () => registry.allocateIndex('BSC')));
    expect(new Set(drawn).size).toBe(20);
    const t = tenant();
    const [index] = drawn;
    const address = { tenantId: t, blockchain: 'BSC' as const, keyId: 'k1', index: index!, address: `0xAbCd${randomBytes(18).toString('hex')}`, createdAt: new Date('2026-11-27T10:00:00.000Z') };
    expect(await registry.insert(address)).toBe('inserted');
    expect(await registry.insert({ ...address, index: drawn[1]!, address: `0x${randomBytes(20).toString('hex')}` })).toBe('exists');
    expect(await registry.find(t, 'BSC', 'k1')).toEqual(address);
    await expect(registry.insert({ ...address, tenantId: tenant(), index: drawn[2]!, address: address.address.toLowerCase() })).rejects.toThrow('already serves another tenant');
    await expect(registry.insert({ ...address, tenantId: tenant(), address: `0x${randomBytes(20).toString('hex')}` })).rejects.toThrow('already serves another tenant');
    expect((await registry.onChain('BSC', 'k1')).filter((a) => a.tenantId === t)).toEqual([address]);
  });
});
