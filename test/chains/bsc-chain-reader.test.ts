/**
 * The BSC ChainReader over a real local node (anvil as chain 56, docs/chains.md § BSC reader):
 * transfers as read from `Transfer` logs, heights from the `finalized` tag, presence after
 * reorganisations. No mock of viem or of the node.
 */
import type { Address } from 'viem';
import type { ChainTransfer } from '../../src/core/deposits/chain-ports';
import { startAnvil } from '../support/chains/anvil';
import { ONE, startBscReaderFixture, type BscReaderFixture } from '../support/chains/bsc-reader-fixture';
import type { Mined } from '../support/chains/local-bsc';
import { startRpcProxy } from '../support/chains/rpc-proxy';

let f: BscReaderFixture;
beforeAll(async () => {
  f = await startBscReaderFixture();
}, 60_000);
afterAll(async () => {
  await f?.stop();
});

/** The transfer the reader must return for log `logIndex` of `mined`. */
async function expected(mined: Mined, logIndex: number, token: Address, to: Address, units: bigint, decimals = 18): Promise<ChainTransfer> {
  const receipt = await f.bsc.publicClient.getTransactionReceipt({ hash: mined.hash });
  const log = receipt.logs[logIndex]!;
  return {
    chain: 'BSC', txHash: mined.hash, index: log.logIndex, height: mined.blockNumber, blockHash: mined.blockHash,
    token, from: f.sender, to, units, decimals,
  };
}

/** Scans `addresses` from just before `since` to the head. */
async function scanFrom(reader: ReturnType<BscReaderFixture['reader']>, addresses: string[], since: bigint) {
  const { head } = await reader.heights();
  return reader.scan(addresses, String(since - 1n), head);
}

describe('BSC reader: transfers', () => {
  it('returns a USDT transfer to a deposit address with every field exact, and the cursor at the block it reached', async () => {
    const to = f.depositAddress(0);
    const mined = await f.bsc.transfer(f.usdt, f.senderIndex, to, 1_500_000n * 10n ** 12n);
    await f.bsc.mine(3);
    const reader = f.reader([f.bsc.url]);
    const { head } = await reader.heights();
    const result = await reader.scan([to.toUpperCase().replace('0X', '0x')], String(mined.blockNumber - 1n), head);
    expect(result).toEqual({
      transfers: [await expected(mined, 0, f.usdt, to, 1_500_000_000_000_000_000n)],
      cursor: String(head), scannedTo: head,
    });
  });

  it('returns two transfers made in one transaction as two, with distinct log indexes, and leaves out the one to a stranger', async () => {
    const [a, b] = [f.depositAddress(1), f.depositAddress(2)];
    const stranger = f.bsc.account(7).address;
    const mined = await f.bsc.transferBatch(f.usdc, f.senderIndex, [
      { to: a, units: 1n }, { to: stranger, units: 5n }, { to: b, units: 2n * ONE },
    ]);
    const result = await scanFrom(f.reader([f.bsc.url]), [a, b], mined.blockNumber);
    expect(result.transfers).toEqual([await expected(mined, 0, f.usdc, a, 1n), await expected(mined, 2, f.usdc, b, 2n * ONE)]);
    expect(result.transfers[0]!.index).not.toBe(result.transfers[1]!.index);
  });

  it('returns a foreign token\'s transfer with its contract and decimals, and nothing for an ERC-721-shaped Transfer', async () => {
    const to = f.depositAddress(3);
    const foreign = await f.bsc.transfer(f.other, f.senderIndex, to, 7n * ONE);
    const nft = await f.bsc.emitNftTransfer(to, 42n);
    const result = await scanFrom(f.reader([f.bsc.url]), [to], foreign.blockNumber);
    expect(nft.blockNumber).toBeGreaterThan(foreign.blockNumber);
    expect(result.transfers).toEqual([await expected(foreign, 0, f.other, to, 7n * ONE)]);
  });

  it('gives 0 decimals for a token contract without decimals()', async () => {
    const to = f.depositAddress(4);
    const bare = await f.bsc.emitBareTransfer(to, 123n);
    const result = await scanFrom(f.reader([f.bsc.url]), [to], bare.blockNumber);
    expect(result.transfers).toEqual([{
      chain: 'BSC', txHash: bare.hash, index: 0, height: bare.blockNumber, blockHash: bare.blockHash,
      token: bare.contract, from: f.bsc.account(0).address.toLowerCase(), to, units: 123n, decimals: 0,
    }]);
  });

  it('reads the addresses in chunks (one eth_getLogs per chunk and range) and misses none', async () => {
    const addresses = [10, 11, 12, 13, 14].map((i) => f.depositAddress(i));
    const first = await f.bsc.transfer(f.usdt, f.senderIndex, addresses[0]!, 1n);
    const mined = [first];
    for (const to of addresses.slice(1)) mined.push(await f.bsc.transfer(f.usdt, f.senderIndex, to, 1n));
    const proxy = await startRpcProxy(f.bsc.url);
    try {
      const reader = f.readerWith([proxy.url], { addressesPerRequest: 2 });
      const { head } = await reader.heights();
      const result = await reader.scan(addresses, String(first.blockNumber - 1n), head);
      expect(result.transfers).toEqual(await Promise.all(mined.map((m, i) => expected(m, 0, f.usdt, addresses[i]!, 1n))));
      expect(proxy.calls.filter((c) => c.method === 'eth_getLogs')).toHaveLength(3);
    } finally {
      await proxy.close();
    }
  });

  it('starts at BSC_START_BLOCK without a cursor, and asks the node nothing for an empty address list', async () => {
    const to = f.depositAddress(15);
    const mined = await f.bsc.transfer(f.usdt, f.senderIndex, to, 9n);
    await f.bsc.mine(3);
    const reader = f.reader([f.bsc.url], { BSC_START_BLOCK: String(mined.blockNumber) });
    const { head, finalized } = await reader.heights();
    expect(mined.blockNumber).toBeLessThan(finalized);
    expect((await reader.scan([to], undefined, head)).transfers).toEqual([await expected(mined, 0, f.usdt, to, 9n)]);
    const proxy = await startRpcProxy(f.bsc.url);
    try {
      // One-block ranges, two per scan: only skipping the ranges reaches the head in one scan.
      const quiet = f.readerWith([proxy.url], { scanRange: 1, rangesPerScan: 2 });
      expect(await quiet.scan([], '0', head)).toEqual({ transfers: [], cursor: String(head), scannedTo: head });
      expect(proxy.calls.map((c) => c.method)).toEqual(['eth_chainId']);
    } finally {
      await proxy.close();
    }
  });

  it('starts after the finalized block when no start block is configured', async () => {
    const reader = f.reader([f.bsc.url], { BSC_START_BLOCK: '' });
    const before = await f.bsc.transfer(f.usdt, f.senderIndex, f.depositAddress(16), 1n);
    await f.bsc.mine(5);
    const { head, finalized } = await reader.heights();
    const after = await f.bsc.transfer(f.usdt, f.senderIndex, f.depositAddress(16), 2n);
    const result = await reader.scan([f.depositAddress(16)], undefined, after.blockNumber);
    expect(before.blockNumber).toBeLessThanOrEqual(finalized);
    expect(finalized).toBe(head - 2n);
    expect(result.transfers).toEqual([await expected(after, 0, f.usdt, f.depositAddress(16), 2n)]);
  });

  it('stops after rangesPerScan ranges and returns how far it got; the next scan goes on from there', async () => {
    const to = f.depositAddress(17);
    const start = await f.bsc.transfer(f.usdt, f.senderIndex, to, 1n);
    await f.bsc.mine(12);
    const late = await f.bsc.transfer(f.usdt, f.senderIndex, to, 2n);
    const reader = f.readerWith([f.bsc.url], { scanRange: 5, rangesPerScan: 2 });
    await f.bsc.mine(3);
    const { head } = await reader.heights();
    const first = await reader.scan([to], String(start.blockNumber - 1n), head);
    expect(first).toEqual({ transfers: [await expected(start, 0, f.usdt, to, 1n)], cursor: String(start.blockNumber + 9n), scannedTo: start.blockNumber + 9n });
    const second = await reader.scan([to], first.cursor, head);
    expect(head).toBe(start.blockNumber + 16n);
    expect(second).toEqual({ transfers: [await expected(late, 0, f.usdt, to, 2n)], cursor: String(head), scannedTo: head });
  });
});

describe('BSC reader: heights', () => {
  it('reports the node\'s head and finalized block, and the finalized height moves with the head', async () => {
    const reader = f.reader([f.bsc.url]);
    const before = await reader.heights();
    await f.bsc.mine(4);
    const after = await reader.heights();
    expect(after).toEqual(await f.bsc.heights());
    expect(after).toEqual({ head: before.head + 4n, finalized: before.finalized + 4n });
    expect(after.finalized).toBe(after.head - 2n);
  });

  it.each([
    ['an error answer', { refuse: (c: { method: string; params: unknown[] }) => (c.method === 'eth_getBlockByNumber' && c.params[0] === 'finalized' ? { code: -32000, message: 'finalized block not found' } : undefined) }],
    ['no block', { rewrite: (c: { method: string; params: unknown[] }, r: unknown) => (c.method === 'eth_getBlockByNumber' && c.params[0] === 'finalized' ? null : r) }],
  ])('falls back to head − BSC_CONFIRMATIONS when the node answers the finalized tag with %s', async (_, behaviour) => {
    const proxy = await startRpcProxy(f.bsc.url, behaviour);
    try {
      const { head } = await f.bsc.heights();
      expect(await f.reader([proxy.url], { BSC_CONFIRMATIONS: '5' }).heights()).toEqual({ head, finalized: head - 5n });
      expect(await f.reader([proxy.url], { BSC_CONFIRMATIONS: String(head + 1n) }).heights()).toEqual({ head, finalized: 0n });
    } finally {
      await proxy.close();
    }
  });

  it('never reports a finalized height above the head', async () => {
    const ahead = await startRpcProxy(f.bsc.url, {
      rewrite: (c, r) => (c.method === 'eth_getBlockByNumber' && c.params[0] === 'finalized' ? { ...(r as object), number: '0xffffff' } : r),
    });
    try {
      const { head } = await f.bsc.heights();
      expect(await f.reader([ahead.url]).heights()).toEqual({ head, finalized: head });
    } finally {
      await ahead.close();
    }
  });

  it('throws rather than guess when no endpoint answers', async () => {
    const down = await startAnvil();
    await down.stop();
    await expect(f.reader([down.url]).heights()).rejects.toThrow();
  });
});

describe('BSC reader: presence', () => {
  it('is present while the block stands and absent once anvil_reorg replaced it', async () => {
    const to = f.depositAddress(20);
    const mined = await f.bsc.transfer(f.usdt, f.senderIndex, to, 3n);
    const reader = f.reader([f.bsc.url]);
    const [transfer] = (await scanFrom(reader, [to], mined.blockNumber)).transfers;
    expect(await reader.presence(transfer!)).toBe('present');
    expect(await reader.presence({ ...transfer!, index: transfer!.index + 1 })).toBe('absent');
    expect(await reader.presence({ ...transfer!, height: transfer!.height - 1n })).toBe('absent');
    await f.bsc.reorg(1);
    expect(await reader.presence(transfer!)).toBe('absent');
  });

  it('is absent at the old place when a reorganisation re-included the transaction in a new block, and the next scan returns it at its new place', async () => {
    const to = f.depositAddress(21);
    const mined = await f.bsc.transfer(f.usdt, f.senderIndex, to, 4n);
    const reader = f.reader([f.bsc.url]);
    const { head } = await reader.heights();
    const first = await reader.scan([to], String(mined.blockNumber - 1n), head);
    const old = first.transfers[0]!;
    await f.bsc.reorg(1, [{ raw: await f.bsc.rawTransaction(mined.hash), blockOffset: 0 }]);
    expect(await reader.presence(old)).toBe('absent');
    await reader.heights();
    const again = await reader.scan([to], first.cursor, head);
    const moved = await f.bsc.publicClient.getTransactionReceipt({ hash: mined.hash });
    expect(moved.blockHash.toLowerCase()).not.toBe(old.blockHash);
    expect(again.transfers).toEqual([{ ...old, height: moved.blockNumber, blockHash: moved.blockHash.toLowerCase() }]);
    expect(await reader.presence(again.transfers[0]!)).toBe('present');
  });

  it('is absent after evm_revert removed the block', async () => {
    const to = f.depositAddress(22);
    const snapshot = await f.bsc.snapshot();
    const mined = await f.bsc.transfer(f.usdt, f.senderIndex, to, 5n);
    const reader = f.reader([f.bsc.url]);
    const [transfer] = (await scanFrom(reader, [to], mined.blockNumber)).transfers;
    await f.bsc.revert(snapshot);
    await f.bsc.mine(2);
    expect(await reader.presence(transfer!)).toBe('absent');
  });

  it('throws rather than answer absent when the node has no block at that height yet', async () => {
    const to = f.depositAddress(23);
    const mined = await f.bsc.transfer(f.usdt, f.senderIndex, to, 6n);
    const [transfer] = (await scanFrom(f.reader([f.bsc.url]), [to], mined.blockNumber)).transfers;
    const behind = await startAnvil();
    try {
      await expect(f.reader([behind.url]).presence(transfer!)).rejects.toThrow(/no block/);
    } finally {
      await behind.stop();
    }
  });
});
