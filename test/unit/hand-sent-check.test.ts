import type { ChainTransfer, WatchedToken } from '../../src/core/deposits/chain-ports';
import { judgeHandSent, type OwedRefund, type TransactionTransfers } from '../../src/core/refunds/hand-sent-check';

const USDT = '0x55d398326f99059ff775485246999027b3197955';
const USDC = '0x8ac76a51cc950d9822d68b83fe1ad97b32cd580d';
const TOKENS: WatchedToken[] = [
  { chain: 'BSC', currency: 'USDT', token: USDT, decimals: 18 },
  { chain: 'BSC', currency: 'USDC', token: USDC, decimals: 18 },
];
const ADDRESS = '0x52908400098527886e0f7030069857d2e4169ee7';
const HASH = `0x${'ab'.repeat(32)}`;
const refund: OwedRefund = { amount: '100.000000', currency: 'USDT', blockchain: 'BSC', refundAddress: ADDRESS };
const heights = { head: 120n, finalized: 100n };

/** A transfer of `whole` tokens (18 decimals) of `token` to the refund address in block `height`. */
function transfer(whole: string, token = USDT, height = 90n, index = 0): ChainTransfer {
  const [int, frac = ''] = whole.split('.');
  const units = BigInt(int!) * 10n ** 18n + BigInt(frac.padEnd(18, '0'));
  return { chain: 'BSC', txHash: HASH, index, height, blockHash: `0x${'cd'.repeat(32)}`, token, from: `0x${'11'.repeat(20)}`, to: ADDRESS, units, decimals: 18 };
}
const landed = (...transfers: ChainTransfer[]): TransactionTransfers => ({ status: 'landed', height: 90n, transfers });
const judge = (seen: TransactionTransfers, others: string[] = [], at = heights) => judgeHandSent(refund, HASH, seen, at, TOKENS, others);

describe('judgeHandSent: is a hand-sent transaction the refund, final onchain', () => {
  it('accepts a final transaction paying the whole amount of the refund token to the refund address', () => {
    expect(judge(landed(transfer('100')))).toEqual({ ok: true, value: undefined });
  });

  it('accepts more than owed, and several transfers adding up to it', () => {
    expect(judge(landed(transfer('100.5'))).ok).toBe(true);
    expect(judge(landed(transfer('60', USDT, 90n, 0), transfer('40', USDT, 90n, 1))).ok).toBe(true);
  });

  it('accepts a transaction in the finalized block itself', () => {
    expect(judge({ status: 'landed', height: 100n, transfers: [transfer('100', USDT, 100n)] }).ok).toBe(true);
  });

  it('refuses a transaction not found as not final yet (it may still land)', () => {
    expect(judge({ status: 'not_found' })).toMatchObject({ ok: false, code: 'tx_not_final', message: expect.stringContaining('was not found') });
  });

  it('refuses a transaction above the finalized height as not final, naming both heights', () => {
    const result = judge({ status: 'landed', height: 101n, transfers: [transfer('100', USDT, 101n)] });
    expect(result).toMatchObject({ ok: false, code: 'tx_not_final', message: expect.stringContaining('block 101, above the finalized 100') });
  });

  it('refuses a failed transaction: it moved nothing', () => {
    expect(judge({ status: 'failed', height: 90n })).toMatchObject({ ok: false, code: 'tx_does_not_pay_refund', message: expect.stringContaining('failed') });
  });

  it('refuses a transaction paying less than owed, by one base unit at the ledger scale', () => {
    const result = judge(landed(transfer('99.999999')));
    expect(result).toMatchObject({ ok: false, code: 'tx_does_not_pay_refund' });
    if (!result.ok) expect(result.message).toContain('pays 99.999999 USDT');
  });

  it('ignores base units below the ledger scale (a dust of 10^-18 does not make up a micro-unit)', () => {
    expect(judge(landed(transfer('99.999999999999999999'))).ok).toBe(false);
  });

  it('counts only the refund token: the same amount of another token does not pay a USDT refund', () => {
    expect(judge(landed(transfer('100', USDC)))).toMatchObject({ ok: false, code: 'tx_does_not_pay_refund', message: expect.stringContaining('pays 0.000000 USDT') });
  });

  it('refuses a landed transaction with no transfer to the refund address', () => {
    expect(judge(landed())).toMatchObject({ ok: false, code: 'tx_does_not_pay_refund' });
  });

  it('counts the refunds already recorded with the same transaction: one transfer never pays two refunds', () => {
    expect(judge(landed(transfer('150')), ['100.000000'])).toMatchObject({ ok: false, code: 'tx_does_not_pay_refund', message: expect.stringContaining('1 other refund') });
    expect(judge(landed(transfer('200')), ['100.000000']).ok).toBe(true);
  });

  it('refuses any token when the chain has no token of the refund currency configured', () => {
    expect(judgeHandSent(refund, HASH, landed(transfer('100')), heights, TOKENS.filter((t) => t.currency !== 'USDT'), []).ok).toBe(false);
  });
});
