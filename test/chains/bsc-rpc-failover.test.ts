/**
 * The BSC reader against RPC endpoints that misbehave the way real providers do (docs/chains.md §
 * BSC reader): one endpoint down, ranges refused, the same logs answered twice. A small JSON-RPC
 * proxy stands in front of a real anvil; the reader and viem are the real ones.
 */
import type { Address } from 'viem';
import type { ChainTransfer } from '../../src/core/deposits/chain-ports';
import { freePort, jsonRpc } from '../support/chains/anvil';
import { counterValue, ONE, startBscReaderFixture, type BscReaderFixture } from '../support/chains/bsc-reader-fixture';
import type { Mined } from '../support/chains/local-bsc';
import { duplicateLogs, logRangeSize, refuseLogRangesOver, startRpcProxy, type RpcProxy } from '../support/chains/rpc-proxy';

let f: BscReaderFixture;
const proxies: RpcProxy[] = [];
beforeAll(async () => {
  f = await startBscReaderFixture();
}, 60_000);
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((p) => p.close()));
});
afterAll(async () => {
  await f?.stop();
});

async function proxy(behaviour: Parameters<typeof startRpcProxy>[1] = {}): Promise<RpcProxy> {
  const started = await startRpcProxy(f.bsc.url, behaviour);
  proxies.push(started);
  return started;
}

/** What the reader must return for the single log of `mined`. */
async function expected(mined: Mined, to: Address, units: bigint, index = 0): Promise<ChainTransfer> {
  const receipt = await f.bsc.publicClient.getTransactionReceipt({ hash: mined.hash });
  return {
    chain: 'BSC', txHash: mined.hash, index: receipt.logs[index]!.logIndex, height: mined.blockNumber, blockHash: mined.blockHash,
    token: f.usdt, from: f.sender, to, units, decimals: 18,
  };
}

/** Transfers to `to` spread over about 40 blocks: returns them with the block before the first. */
async function spreadTransfers(to: Address): Promise<{ since: bigint; mined: Mined[] }> {
  const mined: Mined[] = [];
  for (const gap of [0, 7, 13, 1, 17]) {
    await f.bsc.mine(gap);
    mined.push(await f.bsc.transfer(f.usdt, f.senderIndex, to, BigInt(mined.length + 1) * ONE));
  }
  await f.bsc.mine(3);
  return { since: mined[0]!.blockNumber - 1n, mined };
}

describe('BSC reader: failover between endpoints', () => {
  it('reads through the second URL when the first is down, and counts requests and errors per endpoint', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const to = f.depositAddress(30);
    const mined = await f.bsc.transfer(f.usdt, f.senderIndex, to, 11n);
    const { registry, metrics } = f.metrics();
    const reader = f.reader([closed, f.bsc.url], {}, metrics);
    const { head } = await reader.heights();
    const result = await reader.scan([to], String(mined.blockNumber - 1n), head);
    expect(result.transfers).toEqual([await expected(mined, to, 11n)]);
    expect(await reader.presence(result.transfers[0]!)).toBe('present');

    const label = (url: string) => new URL(url).host;
    for (const method of ['eth_blockNumber', 'eth_getBlockByNumber', 'eth_getLogs', 'eth_getTransactionReceipt']) {
      const down = { chain: 'BSC', endpoint: label(closed), method };
      const up = { chain: 'BSC', endpoint: label(f.bsc.url), method };
      // Every request failed on the closed port first, then went to the node.
      const sent = await counterValue(registry, 'chain_rpc_requests_total', down);
      expect({ method, sent: sent > 0 }).toEqual({ method, sent: true });
      expect({ method, errors: await counterValue(registry, 'chain_rpc_errors_total', down) }).toEqual({ method, errors: sent });
      expect({ method, requests: await counterValue(registry, 'chain_rpc_requests_total', up) }).toEqual({ method, requests: sent });
      expect({ method, errors: await counterValue(registry, 'chain_rpc_errors_total', up) }).toEqual({ method, errors: 0 });
    }
  });
});

describe('BSC reader: an endpoint of another chain', () => {
  it('refuses to read when a configured endpoint serves another chain id, naming its host', async () => {
    const other = await proxy({ rewrite: (c, r) => (c.method === 'eth_chainId' ? '0x1' : r) });
    const reader = f.reader([f.bsc.url, other.url]);
    const message = `BSC RPC endpoint ${new URL(other.url).host} serves chain id 1, not 56: fix BSC_RPC_URLS`;
    await expect(reader.heights()).rejects.toThrow(message);
    await expect(reader.scan([f.depositAddress(38)], '0', 1n)).rejects.toThrow(message);
    expect(other.calls.map((c) => c.method)).toEqual(['eth_chainId']);
  });
});

describe('BSC reader: ranges an RPC refuses', () => {
  it('halves its range until the RPC accepts it, returns every transfer, and never skips a block', async () => {
    const to = f.depositAddress(31);
    const { since, mined } = await spreadTransfers(to);
    const rpc = await proxy({ refuse: refuseLogRangesOver(10) });
    const reader = f.reader([rpc.url], { BSC_SCAN_RANGE: '64' });
    const { head } = await reader.heights();
    const result = await reader.scan([to], String(since), head);
    expect(result).toEqual({
      transfers: await Promise.all(mined.map((m, i) => expected(m, to, BigInt(i + 1) * ONE))), cursor: String(head), scannedTo: head,
    });
    const answered = rpc.calls.filter((c) => c.method === 'eth_getLogs' && !c.refused);
    expect(answered.every((c) => logRangeSize(c)! <= 10n)).toBe(true);
    // 46 blocks: 46 (capped at the head), 32 and 16 refused; 8 × 4 answered, then 16 grows back and
    // is refused at the 14 left, 8 and 6 answered.
    expect(head - since).toBe(46n);
    expect(rpc.calls.filter((c) => c.refused).map((c) => Number(logRangeSize(c)))).toEqual([46, 32, 16, 14]);
    expect(answered.map((c) => Number(logRangeSize(c)))).toEqual([8, 8, 8, 8, 8, 6]);
    const blocks = answered.map((c) => [BigInt((c.params[0] as { fromBlock: string }).fromBlock), BigInt((c.params[0] as { toBlock: string }).toBlock)]);
    expect(blocks[0]![0]).toBe(since + 1n);
    blocks.forEach(([, hi], i) => i + 1 < blocks.length && expect(blocks[i + 1]![0]).toBe(hi! + 1n));
    expect(blocks[blocks.length - 1]![1]).toBe(head);
    expect(reader.currentRange).toBe(8);
  });

  it('grows its range back slowly, doubling after four ranges in a row, to BSC_SCAN_RANGE once wide ranges are accepted again', async () => {
    const to = f.depositAddress(32);
    const rpc = await proxy({ refuse: refuseLogRangesOver(2) });
    const reader = f.reader([rpc.url], { BSC_SCAN_RANGE: '16' });
    const { since } = await spreadTransfers(to);
    await f.bsc.mine(100);
    await reader.heights();
    await reader.scan([to], String(since), since + 4n);
    expect(reader.currentRange).toBe(2);
    rpc.behaviour = {};
    await reader.scan([to], String(since + 4n), since + 4n + 2n * 2n + 4n * 4n + 8n * 4n + 16n * 2n);
    const widths = rpc.calls.filter((c) => c.method === 'eth_getLogs' && !c.refused).map((c) => Number(logRangeSize(c)));
    expect(widths).toEqual([2, 2, 2, 2, 4, 4, 4, 4, 8, 8, 8, 8, 16, 16]);
    expect(reader.currentRange).toBe(16);
  });

  it.each([
    ['-32005 limit exceeded', { code: -32005, message: 'query returned more than 10000 results' }, 200],
    ['-32600 invalid request', { code: -32600, message: 'invalid request' }, 200],
    ['-32000 naming the block range', { code: -32000, message: 'exceed maximum block range: 5000' }, 200],
    ['-32602 naming the block range', { code: -32602, message: 'block range is too wide' }, 200],
    ['HTTP 400 with an error body naming a limit', { code: -32000, message: 'eth_getLogs is limited to a 10 range' }, 400],
  ])('takes %s as a refusal of the range', async (_, answer, status) => {
    const to = f.depositAddress(33);
    const { since, mined } = await spreadTransfers(to);
    const rpc = await proxy({ refuse: refuseLogRangesOver(10, answer), refusalStatus: status });
    const reader = f.reader([rpc.url], { BSC_SCAN_RANGE: '32' });
    const { head } = await reader.heights();
    const result = await reader.scan([to], String(since), head);
    expect(result.transfers).toEqual(await Promise.all(mined.map((m, i) => expected(m, to, BigInt(i + 1) * ONE))));
    expect(reader.currentRange).toBe(8);
  });

  it.each([
    ['-32603 internal error', { code: -32603, message: 'internal error' }, 200],
    ['HTTP 429 rate limit', { code: -32005, message: 'rate limited' }, 429],
    ['HTTP 503', { code: -32000, message: 'upstream unavailable' }, 503],
  ])('does not take %s as a refusal: the scan fails with nothing read and the range stays', async (_, answer, status) => {
    const rpc = await proxy({ refuse: (c) => (c.method === 'eth_getLogs' ? answer : undefined), refusalStatus: status });
    const reader = f.reader([rpc.url], { BSC_SCAN_RANGE: '32' });
    await f.bsc.mine(40);
    const { head } = await reader.heights();
    await expect(reader.scan([f.depositAddress(34)], String(head - 40n), head)).rejects.toThrow(answer.message);
    expect(reader.currentRange).toBe(32);
    expect(rpc.calls.filter((c) => c.method === 'eth_getLogs').map((c) => Number(logRangeSize(c)))).toEqual([32]);
  });

  it('fails when even one block is refused, and returns the progress made before a later failure', async () => {
    const to = f.depositAddress(35);
    const rpc = await proxy({ refuse: refuseLogRangesOver(0) });
    const reader = f.reader([rpc.url], { BSC_SCAN_RANGE: '4' });
    await f.bsc.mine(10);
    const { head } = await reader.heights();
    await expect(reader.scan([to], String(head - 10n), head)).rejects.toThrow(/max block range/);
    expect(reader.currentRange).toBe(1);

    const mined = await f.bsc.transfer(f.usdt, f.senderIndex, to, 5n);
    await f.bsc.mine(3);
    await reader.heights();
    let getLogs = 0;
    rpc.behaviour = { refuse: (c) => (c.method === 'eth_getLogs' && ++getLogs > 1 ? { code: -32603, message: 'internal error' } : undefined) };
    const partial = await reader.scan([to], String(mined.blockNumber - 1n), mined.blockNumber + 5n);
    expect(partial).toEqual({ transfers: [await expected(mined, to, 5n)], cursor: String(mined.blockNumber), scannedTo: mined.blockNumber });
  });
});

describe('BSC reader: an RPC answering the same logs twice', () => {
  it('returns each transfer once, two transfers of one transaction still two', async () => {
    const [a, b] = [f.depositAddress(36), f.depositAddress(37)];
    const single = await f.bsc.transfer(f.usdt, f.senderIndex, a, 1n);
    const batch = await f.bsc.transferBatch(f.usdt, f.senderIndex, [{ to: a, units: 2n }, { to: b, units: 3n }]);
    const rpc = await proxy({ rewrite: duplicateLogs });
    const reader = f.reader([rpc.url]);
    const { head } = await reader.heights();
    const result = await reader.scan([a, b], String(single.blockNumber - 1n), head);
    expect(result.transfers).toEqual([await expected(single, a, 1n), await expected(batch, a, 2n, 0), await expected(batch, b, 3n, 1)]);
    // The proxy did answer every log twice.
    const filter = { fromBlock: `0x${single.blockNumber.toString(16)}`, toBlock: `0x${batch.blockNumber.toString(16)}`, address: f.usdt };
    const direct = await jsonRpc<unknown[]>(f.bsc.url, 'eth_getLogs', [filter]);
    expect(await jsonRpc<unknown[]>(rpc.url, 'eth_getLogs', [filter])).toEqual(direct.flatMap((log) => [log, log]));
  });
});
