/**
 * Hot wallet balances against their low watermarks (docs/operations.md § Refunds: balances and
 * thresholds): the pure judgement is exact decimal, and the monitor reads at most every interval,
 * logs each crossing once, survives a failed read and forgets its series when the lease goes.
 */
import { judgeBalances, type HotWalletBalances } from '../../src/core/refunds/hot-wallet-balances';
import { RefundBalanceMonitor } from '../../src/adapters/workers/refund-balance-monitor';
import type { JudgedBalance } from '../../src/core/refunds/hot-wallet-balances';
import { captureLog } from '../support/captured-log';

describe('judgeBalances', () => {
  const held: HotWalletBalances = { gas: '0.100000000000000000', tokens: [{ currency: 'USDT', amount: '9.999999' }, { currency: 'USDC', amount: '5' }] };

  it('is low strictly below the watermark, exactly (no float rounding), and never low without one', () => {
    expect(judgeBalances('BSC', held, { gas: { BNB: '0.100000000000000001' }, tokens: { USDT: '10' } })).toEqual([
      { kind: 'gas', currency: 'BNB', amount: held.gas, watermark: '0.100000000000000001', low: true },
      { kind: 'token', currency: 'USDT', amount: '9.999999', watermark: '10', low: true },
      { kind: 'token', currency: 'USDC', amount: '5', watermark: undefined, low: false },
    ]);
    expect(judgeBalances('BSC', held, { gas: { BNB: '0.1' }, tokens: { USDT: '9.999999' } }).map((b) => b.low)).toEqual([false, false, false]);
  });

  it('judges gas in the chain\'s own coin: a BNB watermark says nothing of SOL', () => {
    expect(judgeBalances('SOLANA', held, { gas: { BNB: '1' }, tokens: {} })[0]).toMatchObject({ currency: 'SOL', low: false, watermark: undefined });
    expect(judgeBalances('SOLANA', held, { gas: { SOL: '1' }, tokens: {} })[0]).toMatchObject({ currency: 'SOL', low: true });
  });
});

describe('RefundBalanceMonitor', () => {
  let now = 0;
  let reads = 0;
  let answer: HotWalletBalances | Error = { gas: '0.5', tokens: [{ currency: 'USDT', amount: '100' }] };
  const shown: (readonly JudgedBalance[] | 'forgotten')[] = [];
  const log = captureLog('info');
  const monitor = new RefundBalanceMonitor({
    chain: 'BSC', wallet: '0xabc', watermarks: { gas: { BNB: '1' }, tokens: { USDT: '50' } }, everyMs: 60_000, now: () => now, logger: log.logger,
    read: async () => {
      reads++;
      if (answer instanceof Error) throw answer;
      return answer;
    },
    gauges: { walletBalances: (_c, _w, judged) => shown.push(judged), forgetWallet: () => shown.push('forgotten') },
  });
  const lines = () => log.lines.map((l) => [l.level >= 40 ? 'warn' : 'info', l.currency ?? null, l.msg]);

  it('reads at once, then at most every interval however often it is asked; each crossing is one line', async () => {
    await monitor.maybeRead();
    now = 59_999;
    await monitor.maybeRead();
    await monitor.maybeRead();
    expect(reads).toBe(1);
    expect(shown).toEqual([[expect.objectContaining({ currency: 'BNB', low: true }), expect.objectContaining({ currency: 'USDT', low: false })]]);
    expect(lines()).toEqual([['warn', 'BNB', expect.stringMatching(/gas balance is below its low watermark/)]]);

    now = 60_000;
    await monitor.maybeRead();
    expect(reads).toBe(2);
    expect(lines()).toHaveLength(1);

    answer = { gas: '2', tokens: [{ currency: 'USDT', amount: '49.99' }] };
    now = 120_000;
    await monitor.maybeRead();
    expect(lines().slice(1)).toEqual([
      ['info', 'BNB', expect.stringMatching(/back at or above/)], ['warn', 'USDT', expect.stringMatching(/token balance is below/)],
    ]);
  });

  it('a failed read is one warn line, never a thrown pass, and is tried again after the interval', async () => {
    answer = new Error('every endpoint down');
    now = 180_000;
    await expect(monitor.maybeRead()).resolves.toBeUndefined();
    expect(log.lines.at(-1)).toMatchObject({ msg: expect.stringMatching(/balances not read/) });
    const before = reads;
    await monitor.maybeRead();
    expect(reads).toBe(before);
  });

  it('forget drops the series, and the next read is at once and logs a standing low balance again', async () => {
    monitor.forget();
    expect(shown.at(-1)).toBe('forgotten');
    answer = { gas: '2', tokens: [{ currency: 'USDT', amount: '1' }] };
    const before = reads;
    const logged = log.lines.length;
    await monitor.maybeRead();
    expect(reads).toBe(before + 1);
    expect(lines().slice(logged)).toEqual([['warn', 'USDT', expect.stringMatching(/token balance is below/)]]);
  });
});
