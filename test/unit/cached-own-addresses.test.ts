import { CachedOwnAddresses } from '../../src/adapters/persistence/cached-own-addresses';
import type { Blockchain } from '../../src/core/catalog/catalog';

/** The money-out's own-address lookup cached per replica (docs/decisions.md § Refunds: refund addresses). */
describe('CachedOwnAddresses', () => {
  let now = 0;
  const ours = new Set<string>(['BSC:0xabc', 'SOLANA:So1']);
  const asked: string[] = [];
  const cache = new CachedOwnAddresses({
    isDepositAddress: async (chain: Blockchain, address: string) => {
      asked.push(`${chain}:${address}`);
      return ours.has(`${chain}:${chain === 'BSC' ? address.toLowerCase() : address}`);
    },
  }, () => now);

  beforeEach(() => {
    asked.length = 0;
  });

  it('keeps "ours" for good, across the cases of a BSC address', async () => {
    expect(await cache.isDepositAddress('BSC', '0xABC')).toBe(true);
    now += 10 * 60_000;
    expect(await cache.isDepositAddress('BSC', '0xabc')).toBe(true);
    expect(asked).toEqual(['BSC:0xABC']);
  });

  it('keeps "not ours" for 60 s, then asks again and sees an address assigned meanwhile', async () => {
    expect(await cache.isDepositAddress('SOLANA', 'So2')).toBe(false);
    ours.add('SOLANA:So2');
    now += 59_999;
    expect(await cache.isDepositAddress('SOLANA', 'So2')).toBe(false);
    now += 1;
    expect(await cache.isDepositAddress('SOLANA', 'So2')).toBe(true);
    expect(asked).toEqual(['SOLANA:So2', 'SOLANA:So2']);
  });

  it('compares Solana addresses exactly (base58 is case-sensitive)', async () => {
    expect(await cache.isDepositAddress('SOLANA', 'so1')).toBe(false);
    expect(await cache.isDepositAddress('SOLANA', 'So1')).toBe(true);
    expect(asked).toEqual(['SOLANA:so1', 'SOLANA:So1']);
  });
});
