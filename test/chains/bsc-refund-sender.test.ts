/**
 * The BSC refund sender on a real anvil (docs/chains.md § BSC refunds): what it signs lands the
 * exact base units, lookups, each broadcast answer it maps, replacement under the same nonce,
 * expiry judged at the finalized block, shortfalls and nonce choice. Each test has its own hot
 * wallet (a fresh key), so nonces and balances are its own.
 */
import { parseTransaction, decodeFunctionData, erc20Abi, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { BscHotWalletSigner } from '../../src/adapters/chains/bsc/bsc-hot-wallet-signer';
import { BNB, ONE, startBscRefundFixture, type BscRefundFixture } from '../support/chains/bsc-refund-fixture';
import { startRpcProxy } from '../support/chains/rpc-proxy';

jest.setTimeout(60_000);

let f: BscRefundFixture;
beforeAll(async () => {
  f = await startBscRefundFixture();
}, 60_000);
afterAll(async () => {
  await f?.stop();
});

// anvil's automine seals the block after eth_sendRawTransaction has answered: the receipt is waited for, not read at once.
const receiptOf = (hash: string) => f.bsc.publicClient.waitForTransactionReceipt({ hash: hash as Hex, pollingInterval: 20, timeout: 10_000 });

describe('BscRefundSender on anvil', () => {
  it('signs a legacy EIP-155 BEP-20 transfer that, broadcast, lands the exact base units at refundAddress', async () => {
    const w = await f.wallet();
    const refund = f.refund('12.115416');
    const signed = await w.sender.sign(refund, { lastNonce: null });
    expect(signed).toMatchObject({ nonce: 0n, blockhash: null, lastValidHeight: null });
    expect(signed.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    const tx = parseTransaction(signed.rawTransaction as Hex);
    expect(tx).toMatchObject({ type: 'legacy', chainId: 56, nonce: 0, to: f.usdt, gas: 100_000n });
    expect(tx.value ?? 0n).toBe(0n);
    expect(decodeFunctionData({ abi: erc20Abi, data: tx.data! })).toEqual({ functionName: 'transfer', args: [expect.stringMatching(/^0x/i), 12_115_416n * 10n ** 12n] });
    // The same bytes viem's own account signs for this key: our serialisation and the signer port agree with it.
    expect(await privateKeyToAccount(w.key).signTransaction({ ...tx, type: 'legacy' } as never)).toBe(signed.rawTransaction);

    await w.sender.broadcast(signed.rawTransaction);
    const receipt = await receiptOf(signed.txHash);
    expect(receipt.status).toBe('success');
    expect(await f.bsc.balanceOf(f.usdt, refund.refundAddress)).toBe(12_115_416n * 10n ** 12n);
    expect(await f.bsc.balanceOf(f.usdt, w.address)).toBe(1_000n * ONE - 12_115_416n * 10n ** 12n);
    expect(await w.sender.lookup(signed.txHash)).toEqual({ status: 'landed', height: receipt.blockNumber });
  });

  it('sends the refund currency\'s own contract: a USDC refund moves USDC', async () => {
    const w = await f.wallet();
    await f.bsc.mint(f.usdc, w.address, 5n * ONE);
    const refund = f.refund('5', 'USDC');
    const signed = await w.sender.sign(refund, { lastNonce: null });
    await w.sender.broadcast(signed.rawTransaction);
    expect(await f.bsc.balanceOf(f.usdc, refund.refundAddress)).toBe(5n * ONE);
    expect(await f.bsc.balanceOf(f.usdt, refund.refundAddress)).toBe(0n);
  });

  it('lookup: a transfer that reverts onchain (more than the wallet holds) is reverted at its block, and moved nothing', async () => {
    const w = await f.wallet({ usdt: 1n * ONE });
    const refund = f.refund('2.000000');
    const signed = await w.sender.sign(refund, { lastNonce: null });
    await w.sender.broadcast(signed.rawTransaction);
    const receipt = await receiptOf(signed.txHash);
    expect(receipt.status).toBe('reverted');
    expect(await w.sender.lookup(signed.txHash)).toEqual({ status: 'reverted', height: receipt.blockNumber, reason: expect.stringContaining('0x0') });
    expect(await f.bsc.balanceOf(f.usdt, refund.refundAddress)).toBe(0n);
  });

  it('lookup: a hash the chain never saw is not_found', async () => {
    const w = await f.wallet({ usdt: 0n });
    expect(await w.sender.lookup(`0x${'ab'.repeat(32)}`)).toEqual({ status: 'not_found' });
  });

  it('lookup: a transaction still in the pool (no block yet) is not_found', async () => {
    const w = await f.wallet();
    const signed = await w.sender.sign(f.refund('1'), { lastNonce: null });
    await f.withoutAutomine(async () => {
      await w.sender.broadcast(signed.rawTransaction);
      expect(await w.sender.lookup(signed.txHash)).toEqual({ status: 'not_found' });
      await f.bsc.mine();
    });
    expect((await w.sender.lookup(signed.txHash)).status).toBe('landed');
  });

  it('broadcast: the same raw transaction again while it is pooled ("transaction already imported") is not an error', async () => {
    const w = await f.wallet();
    const refund = f.refund('3');
    const signed = await w.sender.sign(refund, { lastNonce: null });
    await f.withoutAutomine(async () => {
      await w.sender.broadcast(signed.rawTransaction);
      await expect(f.bsc.anvil.rpc('eth_sendRawTransaction', [signed.rawTransaction])).rejects.toThrow(/already imported/);
      await expect(w.sender.broadcast(signed.rawTransaction)).resolves.toBeUndefined();
      await f.bsc.mine();
    });
    expect(await f.bsc.balanceOf(f.usdt, refund.refundAddress)).toBe(3n * ONE);
  });

  it('broadcast: the same raw transaction after it landed ("nonce too low") is not an error, and nothing moves twice', async () => {
    const w = await f.wallet();
    const refund = f.refund('4');
    const signed = await w.sender.sign(refund, { lastNonce: null });
    await w.sender.broadcast(signed.rawTransaction);
    await expect(f.bsc.anvil.rpc('eth_sendRawTransaction', [signed.rawTransaction])).rejects.toThrow(/nonce too low/);
    await expect(w.sender.broadcast(signed.rawTransaction)).resolves.toBeUndefined();
    await f.bsc.mine(2);
    expect(await f.bsc.balanceOf(f.usdt, refund.refundAddress)).toBe(4n * ONE);
  });

  it('broadcast: any other refusal throws with the node\'s words (a wallet without BNB for gas)', async () => {
    const w = await f.wallet({ bnb: 0n });
    const signed = await w.sender.sign(f.refund('1'), { lastNonce: null });
    await expect(w.sender.broadcast(signed.rawTransaction)).rejects.toThrow(/^BSC refused the refund transaction: .*insufficient funds/i);
    expect(await w.sender.lookup(signed.txHash)).toEqual({ status: 'not_found' });
  });

  it('replacement: with a transaction pending, one under the same nonce with the bumped fee is accepted, and only one of the two lands', async () => {
    const w = await f.wallet();
    const refund = f.refund('6.5');
    await f.withoutAutomine(async () => {
      const first = await w.sender.sign(refund, { lastNonce: null });
      await w.sender.broadcast(first.rawTransaction);
      const attempt = f.attemptOf(refund, w.sender.wallet, first);
      const second = await w.sender.sign(refund, { lastNonce: attempt.nonce, replacing: attempt });
      expect(second.nonce).toBe(first.nonce);
      expect(second.txHash).not.toBe(first.txHash);
      // The default bump, 20 %, rounded up.
      expect(f.gasPriceOf(second.rawTransaction)).toBe((f.gasPriceOf(first.rawTransaction) * 120n + 99n) / 100n);
      await w.sender.broadcast(second.rawTransaction);
      await f.bsc.mine();
      expect(await w.sender.lookup(second.txHash)).toMatchObject({ status: 'landed' });
      expect(await w.sender.lookup(first.txHash)).toEqual({ status: 'not_found' });
      // The replaced one again: its nonce is used, answered "nonce too low", not an error, and it never lands.
      await w.sender.broadcast(first.rawTransaction);
      await f.bsc.mine(3);
      expect(await w.sender.lookup(first.txHash)).toEqual({ status: 'not_found' });
    });
    expect(await f.bsc.balanceOf(f.usdt, refund.refundAddress)).toBe(6_500_000n * 10n ** 12n);
  });

  it('replacement: one without a higher fee is refused by the node ("replacement transaction underpriced"), which is not an error; the pooled one lands', async () => {
    // A sender that bumps by nothing, which the configuration never allows (≥ 10 %): the node must refuse its replacement.
    const w = await f.wallet();
    const noBump = f.senderWith(w.key, { feeBumpPercent: 0 });
    const refund = f.refund('7');
    const other = f.refund('8');
    await f.withoutAutomine(async () => {
      const first = await w.sender.sign(refund, { lastNonce: null });
      await w.sender.broadcast(first.rawTransaction);
      const underpriced = await noBump.sign(other, { lastNonce: null, replacing: f.attemptOf(refund, w.sender.wallet, first) });
      expect(underpriced.nonce).toBe(first.nonce);
      expect(f.gasPriceOf(underpriced.rawTransaction)).toBe(f.gasPriceOf(first.rawTransaction));
      await expect(f.bsc.anvil.rpc('eth_sendRawTransaction', [underpriced.rawTransaction])).rejects.toThrow(/replacement transaction underpriced/);
      await expect(w.sender.broadcast(underpriced.rawTransaction)).resolves.toBeUndefined();
      await f.bsc.mine();
      expect(await w.sender.lookup(first.txHash)).toMatchObject({ status: 'landed' });
      expect(await w.sender.lookup(underpriced.txHash)).toEqual({ status: 'not_found' });
    });
    expect(await f.bsc.balanceOf(f.usdt, refund.refundAddress)).toBe(7n * ONE);
    expect(await f.bsc.balanceOf(f.usdt, other.refundAddress)).toBe(0n);
  });

  it('expired: false while the nonce is used only above the finalized block, true once the finalized block passed it', async () => {
    const w = await f.wallet();
    const refund = f.refund('1');
    await f.withoutAutomine(async () => {
      const signed = await w.sender.sign(refund, { lastNonce: null });
      const attempt = f.attemptOf(refund, w.sender.wallet, signed);
      await w.sender.broadcast(signed.rawTransaction);
      expect(await w.sender.expired(attempt)).toBe(false);
      await f.bsc.mine();
      const landed = (await receiptOf(signed.txHash)).blockNumber;
      expect((await w.sender.heights()).finalized).toBeLessThan(landed);
      expect(await w.sender.expired(attempt)).toBe(false);
      await f.bsc.mine();
      expect((await w.sender.heights()).finalized).toBeLessThan(landed);
      expect(await w.sender.expired(attempt)).toBe(false);
      await f.bsc.mine();
      expect(await w.sender.heights()).toEqual({ head: landed + 2n, finalized: landed });
      expect(await w.sender.expired(attempt)).toBe(true);
    });
  });

  it('heights: anvil\'s head and its finalized tag', async () => {
    const w = await f.wallet({ usdt: 0n });
    expect(await w.sender.heights()).toEqual(await f.bsc.heights());
  });

  it('stuck: from REFUND_REPLACE_AFTER_MS after the current transaction was signed', async () => {
    const w = await f.wallet({ usdt: 0n }, { REFUND_REPLACE_AFTER_MS: '5000' });
    const refund = f.refund('1');
    const signedAt = new Date('2026-11-27T03:00:00.000Z');
    const attempt = f.attemptOf(refund, w.sender.wallet, { txHash: `0x${'cd'.repeat(32)}`, rawTransaction: '0x', nonce: 0n, blockhash: null, lastValidHeight: null }, signedAt);
    expect(w.sender.stuck(attempt, new Date(signedAt.getTime() + 4_999))).toBe(false);
    expect(w.sender.stuck(attempt, new Date(signedAt.getTime() + 5_000))).toBe(true);
  });

  it('shortfall: token when the wallet holds less than the refund, gas when its BNB cannot pay gasLimit × gasPrice, none when funded', async () => {
    const refund = f.refund('10');
    const fewTokens = await f.wallet({ usdt: 10n * ONE - 1n });
    expect(await fewTokens.sender.shortfall(refund)).toBe('token');
    const noGas = await f.wallet({ bnb: 0n, usdt: 10n * ONE });
    expect(await noGas.sender.shortfall(refund)).toBe('gas');
    // At the boundary: setting a balance mines no block, so the node's gas price stays what it was read.
    const edge = await f.wallet({ usdt: 10n * ONE });
    const fee = 100_000n * await f.bsc.publicClient.getGasPrice();
    await f.bsc.anvil.rpc('anvil_setBalance', [edge.address, `0x${(fee - 1n).toString(16)}`]);
    expect(await edge.sender.shortfall(refund)).toBe('gas');
    await f.bsc.anvil.rpc('anvil_setBalance', [edge.address, `0x${fee.toString(16)}`]);
    expect(await edge.sender.shortfall(refund)).toBeUndefined();
    const funded = await f.wallet({ bnb: BNB, usdt: 10n * ONE });
    expect(await funded.sender.shortfall(refund)).toBeUndefined();
  });

  it('nonce: the chain\'s pending nonce when an outside transaction used one, the stored one + 1 when that is higher', async () => {
    const w = await f.wallet();
    const refund = f.refund('1');
    expect((await w.sender.sign(refund, { lastNonce: null })).nonce).toBe(0n);
    await f.outsideTransaction(w.key);
    expect((await w.sender.sign(refund, { lastNonce: null })).nonce).toBe(1n);
    expect((await w.sender.sign(refund, { lastNonce: 0n })).nonce).toBe(1n);
    expect((await w.sender.sign(refund, { lastNonce: 4n })).nonce).toBe(5n);
    await f.withoutAutomine(async () => {
      await f.outsideTransaction(w.key); // pending, not in a block: counted all the same
      expect((await w.sender.sign(refund, { lastNonce: 0n })).nonce).toBe(2n);
      await f.bsc.mine();
    });
  });

  it.each([
    ['geth and BSC: already known', -32000, 'already known'],
    ['older geth: known transaction', -32000, 'known transaction: 8ba1f109551bd432803012645ac136ddd64dba72'],
    ['geth and BSC: nonce too low, with its details', -32000, 'nonce too low: address 0x70997970C51812dc3A010C7d01b50e0d17dc79C8, tx: 0 state: 1'],
    ['geth and BSC: replacement transaction underpriced', -32000, 'replacement transaction underpriced'],
  ])('broadcast: %s, answered by the node, is not an error', async (_name, code, message) => {
    const proxy = await startRpcProxy(f.bsc.url, { refuse: (call) => (call.method === 'eth_sendRawTransaction' ? { code, message } : undefined) });
    try {
      const w = await f.wallet({}, { BSC_RPC_URLS: proxy.url });
      const signed = await w.sender.sign(f.refund('1'), { lastNonce: null });
      await expect(w.sender.broadcast(signed.rawTransaction)).resolves.toBeUndefined();
      expect(proxy.calls.filter((c) => c.method === 'eth_sendRawTransaction')).toHaveLength(1);
    } finally {
      await proxy.close();
    }
  });

  it('broadcast: an unmapped answer ("transaction underpriced") and a transport fault (the endpoint gone) throw', async () => {
    const proxy = await startRpcProxy(f.bsc.url, {
      refuse: (call) => (call.method === 'eth_sendRawTransaction' ? { code: -32000, message: 'transaction underpriced: tip needed 1, tip permitted 0' } : undefined),
    });
    try {
      const w = await f.wallet({}, { BSC_RPC_URLS: proxy.url });
      const signed = await w.sender.sign(f.refund('1'), { lastNonce: null });
      await expect(w.sender.broadcast(signed.rawTransaction)).rejects.toThrow('BSC refused the refund transaction: transaction underpriced: tip needed 1');
      await proxy.close();
      await expect(w.sender.broadcast(signed.rawTransaction)).rejects.toThrow(/HTTP request failed|fetch failed|ECONNREFUSED/i);
      expect(await f.bsc.balanceOf(f.usdt, w.address)).toBe(1_000n * ONE);
    } finally {
      await proxy.close().catch(() => undefined);
    }
  });

  it('sign: a replacement pays the node\'s gas price when that is above the bumped one', async () => {
    const w = await f.wallet();
    const refund = f.refund('1');
    await f.withoutAutomine(async () => {
      const first = await w.sender.sign(refund, { lastNonce: null });
      await f.bsc.anvil.rpc('anvil_setNextBlockBaseFeePerGas', [`0x${(f.gasPriceOf(first.rawTransaction) * 10n).toString(16)}`]);
      const nodePrice = await f.bsc.publicClient.getGasPrice();
      expect(nodePrice).toBeGreaterThan((f.gasPriceOf(first.rawTransaction) * 120n + 99n) / 100n);
      const second = await w.sender.sign(refund, { lastNonce: first.nonce, replacing: f.attemptOf(refund, w.sender.wallet, first) });
      expect(f.gasPriceOf(second.rawTransaction)).toBe(nodePrice);
    });
  });

  it('sign: refuses a gas price above BSC_REFUND_MAX_GAS_PRICE_GWEI, and a signer whose signature is another key\'s', async () => {
    const w = await f.wallet({}, { BSC_REFUND_MAX_GAS_PRICE_GWEI: '1' });
    expect(await f.bsc.publicClient.getGasPrice()).toBeGreaterThan(10n ** 9n);
    await expect(w.sender.sign(f.refund('1'), { lastNonce: null })).rejects.toThrow(/above BSC_REFUND_MAX_GAS_PRICE_GWEI/);

    const other = new BscHotWalletSigner(`0x${'42'.repeat(32)}`, 'test key');
    const impostor = f.senderWith(w.key, {}, { chain: 'BSC', address: w.address, sign: other.sign });
    await expect(impostor.sign(f.refund('1'), { lastNonce: null })).rejects.toThrow(/signed with another key/);
  });
});
