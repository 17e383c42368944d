import { BookRateSource, EnvironmentRateSource } from '../../src/adapters/providers/rates/live-rate-source';
import { RateBook } from '../../src/core/quotes/rate-book';
import type { RateContext, RateSource } from '../../src/core/quotes/rate-source';
import type { SpreadTable } from '../../src/core/quotes/spread';
import type { TenantEnvironments } from '../../src/core/routing/provider-routing';
import { err, ok } from '../../src/core/shared/result';

/**
 * The live RateSource adapters (docs/decisions.md § FX quotes: live rates): the book's mid with the
 * corridor's spread and its basis, `rate_unavailable` with `retryAfterS` while a pair has no price,
 * and the choice between sandbox and live rates by the tenant's environment.
 */
const NOW = new Date('2026-11-27T06:00:00Z');
const clock = { now: () => NOW };
const at = new Date(NOW.getTime() - 5_000);
const context: RateContext = { tenantId: 'tenant-1', paymentMethod: 'MOMO', country: 'KE' };
const spreads: SpreadTable = { default: '1', byCorridor: { 'KE:MOMO': '0.5', '*:BANK': '2' } };

function book(): RateBook {
  return new RateBook([{ fiat: 'KES', stablecoin: 'USDC' }], {
    aggregation: { maxAgeMs: {}, defaultMaxAgeMs: 120_000, quorum: 2, bandPercent: '2' },
    jump: { percent: '5', windowMs: 600_000 },
  });
}

describe('BookRateSource', () => {
  it('prices the live mid with the corridor spread, and gives the mid, spread and sources it used', async () => {
    const rates = book();
    rates.record('a', { rates: [{ fiat: 'KES', stablecoin: 'USDC', rate: '129', at }], problems: [] });
    rates.record('b', { rates: [{ fiat: 'KES', stablecoin: 'USDC', rate: '130', at }], problems: [] });
    rates.refresh(NOW);
    const source = new BookRateSource(rates, () => spreads, 15, clock);
    expect(await source.rate('KES', 'USDC', context)).toEqual(ok({
      rate: '128.8525',
      basis: {
        origin: 'live', mid: '129.5', pinId: null, spreadPercent: '0.5',
        sources: [{ source: 'a', rate: '129', at: at.toISOString() }, { source: 'b', rate: '130', at: at.toISOString() }],
      },
    }));
    expect(await source.rate('KES', 'USDC', { tenantId: 'tenant-1', paymentMethod: 'BANK' })).toEqual(ok(expect.objectContaining({
      rate: '126.91', basis: expect.objectContaining({ spreadPercent: '2' }),
    })));
  });

  it('a pair without a priced mid is rate_unavailable with retryAfterS; a pair the book does not quote is unsupported_pair', async () => {
    const source = new BookRateSource(book(), () => spreads, 15, clock);
    expect(await source.rate('KES', 'USDC', context)).toEqual(
      err('rate_unavailable', 'No live exchange rate for KES/USDC now; retry later', { retryAfterS: 15 }),
    );
    expect(await source.rate('NGN', 'USDC', context)).toEqual(err('unsupported_pair', 'No rate for NGN/USDC'));
  });

  it('reads the spread table at each call (an operator change applies to the next quote)', async () => {
    const rates = book();
    rates.addPin({ id: 'pin-1', fiat: 'KES', stablecoin: 'USDC', rate: '100', reason: 'r', createdBy: 'op', createdAt: at, expiresAt: new Date(NOW.getTime() + 60_000) });
    let table: SpreadTable = { default: '0', byCorridor: {} };
    const source = new BookRateSource(rates, () => table, 15, clock);
    expect(await source.rate('KES', 'USDC', context)).toEqual(ok({
      rate: '100', basis: { origin: 'pin', mid: '100', pinId: 'pin-1', spreadPercent: '0', sources: [] },
    }));
    table = { default: '3', byCorridor: {} };
    expect(await source.rate('KES', 'USDC', context)).toEqual(ok(expect.objectContaining({ rate: '97' })));
  });
});

describe('EnvironmentRateSource', () => {
  const named = (name: string): RateSource => ({ rate: async () => ok({ rate: name, basis: {} as never }) });
  const environments = (map: Record<string, 'live' | 'sandbox'>): TenantEnvironments => ({ environmentOf: async (id) => map[id] });

  it('live tenants get the live source; sandbox and unknown tenants the sandbox one', async () => {
    const source = new EnvironmentRateSource(environments({ l: 'live', s: 'sandbox' }), named('sandbox'), named('live'));
    const rateFor = async (tenantId: string) => {
      const result = await source.rate('KES', 'USDC', { ...context, tenantId });
      return result.ok ? result.value.rate : undefined;
    };
    expect([await rateFor('l'), await rateFor('s'), await rateFor('unknown')]).toEqual(['live', 'sandbox', 'sandbox']);
  });
});
