import { bufferedRandom, ulidGenerator } from '../../src/adapters/providers/system';

describe('id generator', () => {
  it('makes prefixed ULIDs that are unique and sort in creation order', () => {
    const ids = ulidGenerator();
    const made = Array.from({ length: 20_000 }, () => ids.next('pay'));
    expect(made.filter((id) => !/^pay_[0-9A-HJKMNP-TV-Z]{26}$/.test(id))).toEqual([]);
    expect(new Set(made).size).toBe(made.length);
    expect([...made].sort()).toEqual(made);
  });

  it('draws uniformly in [0, 1) from the CSPRNG, across its 4 KiB refills', () => {
    const draw = bufferedRandom();
    const draws = Array.from({ length: 64_000 }, draw);
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...draws)).toBeLessThan(1);
    const buckets = new Array<number>(32).fill(0);
    for (const x of draws) buckets[Math.floor(x * 32)]! += 1;
    // 2,000 expected per bucket; 5 standard deviations is about +/-220.
    for (const count of buckets) expect(Math.abs(count - 2000)).toBeLessThan(250);
    const other = bufferedRandom();
    expect(Array.from({ length: 8 }, other)).not.toEqual(Array.from({ length: 8 }, bufferedRandom()));
  });
});
