import pino from 'pino';
import { ConfigError, loadConfig } from '../../src/app/config';
import { configuredRefundSenders, refundWorkers, watermarksOf, type RefundWorkersDeps } from '../../src/app/refund-senders';
import { FakeRefundChain } from '../support/fake-refund-chain';

/** A development key (anvil's account 0): never a secret, and never to appear in a message. */
const KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const noRpcErrors = () => undefined;

/** The refunds workers as the configuration sets them (docs/operations.md § Refunds). */
describe('refund senders configuration', () => {
  it('defaults: on, 2 s between idle passes, a 30 s lease, replacement after 2 minutes; a lease under two intervals is refused', () => {
    const config = loadConfig({});
    expect([config.REFUND_WORKER_ENABLED, config.REFUND_INTERVAL_MS, config.REFUND_LEASE_MS, config.REFUND_REPLACE_AFTER_MS]).toEqual([true, 2_000, 30_000, 120_000]);
    expect(() => loadConfig({ REFUND_INTERVAL_MS: '5000', REFUND_LEASE_MS: '9999' })).toThrow('REFUND_LEASE_MS must be at least twice REFUND_INTERVAL_MS');
    expect(loadConfig({ REFUND_INTERVAL_MS: '5000', REFUND_LEASE_MS: '10000' }).REFUND_LEASE_MS).toBe(10_000);
  });

  it('no hot wallet variable: no sender, so no worker (nothing changes)', () => {
    expect(configuredRefundSenders(loadConfig({ BSC_RPC_URLS: 'http://127.0.0.1:8545' }), noRpcErrors)).toEqual([undefined, undefined]);
    expect(refundWorkers([undefined], {} as RefundWorkersDeps)).toEqual([]);
  });

  it('a hot wallet key and BSC_RPC_URLS: the BSC sender of that key', () => {
    const [sender] = configuredRefundSenders(loadConfig({ BSC_RPC_URLS: 'http://127.0.0.1:8545', BSC_HOT_WALLET_KEY: KEY }), noRpcErrors);
    expect([sender?.chain, sender?.wallet]).toEqual(['BSC', '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266']);
  });

  it('a key without BSC_RPC_URLS is a ConfigError naming the variables, never the key', () => {
    let error: unknown;
    try {
      configuredRefundSenders(loadConfig({ BSC_HOT_WALLET_KEY: KEY }), noRpcErrors);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).variables).toEqual(expect.arrayContaining(['BSC_RPC_URLS']));
    expect(JSON.stringify(error) + String(error)).not.toContain(KEY.slice(2));
  });

  it('one wallet given twice is refused', () => {
    const deps = { logger: pino({ level: 'silent' }) } as RefundWorkersDeps;
    expect(() => refundWorkers([new FakeRefundChain('BSC'), new FakeRefundChain('BSC')], deps)).toThrow(/configured twice/);
    expect(refundWorkers([new FakeRefundChain('BSC'), new FakeRefundChain('SOLANA')], deps)).toHaveLength(2);
  });

  it('balances: read every 60 s by default; watermarks are decimal strings, unset ones absent, anything else a ConfigError naming the variable', () => {
    const plain = loadConfig({});
    expect(plain.REFUND_BALANCE_INTERVAL_MS).toBe(60_000);
    expect(watermarksOf(plain)).toEqual({ gas: {}, tokens: {} });
    const set = loadConfig({ REFUND_GAS_LOW_WATERMARK_BNB: '0.05', REFUND_TOKEN_LOW_WATERMARK_USDT: '2500', REFUND_BALANCE_INTERVAL_MS: '1000' });
    expect(watermarksOf(set)).toEqual({ gas: { BNB: '0.05' }, tokens: { USDT: '2500' } });
    for (const bad of ['-1', '1e3', '0,5', 'lots']) {
      expect(() => loadConfig({ REFUND_GAS_LOW_WATERMARK_SOL: bad })).toThrow(/REFUND_GAS_LOW_WATERMARK_SOL/);
    }
    expect(() => loadConfig({ REFUND_BALANCE_INTERVAL_MS: '999' })).toThrow(/REFUND_BALANCE_INTERVAL_MS/);
  });
});
