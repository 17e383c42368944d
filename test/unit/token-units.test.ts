import { tokenUnits } from '../../src/core/deposits/deposit-amount';

/** A ledger amount in a token's base units (docs/decisions.md § Refunds: amount and fees, refusals). */
describe('tokenUnits', () => {
  const UINT256 = 2n ** 256n - 1n;
  const U64 = 2n ** 64n - 1n;

  it.each([
    ['12.5', 18, 12_500_000_000_000_000_000n],
    ['12.500000', 6, 12_500_000n],
    ['0.000001', 6, 1n],
    ['3.10', 2, 310n],
    ['7', 0, 7n],
  ])('%s at %i decimals is %s base units, exactly', (amount, decimals, units) => {
    expect(tokenUnits(amount, decimals, UINT256)).toBe(units);
  });

  it.each([
    ['0', 6], ['0.000000', 18], ['-1', 6], ['1e3', 6], ['1.', 6], ['.5', 6], ['1.0000001', 18], [' 1', 6],
    ['0.001', 2],
  ])('%s at %i decimals is not representable', (amount, decimals) => {
    expect(tokenUnits(amount, decimals, UINT256)).toBeUndefined();
  });

  it('at most the chain\'s largest transfer', () => {
    expect(tokenUnits('18446744073709.551615', 6, U64)).toBe(U64);
    expect(tokenUnits('18446744073709.551616', 6, U64)).toBeUndefined();
  });
});
