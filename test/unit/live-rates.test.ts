import { aggregateRates, medianOf, type AggregationSettings, type SourceRate } from '../../src/core/quotes/rate-aggregation';
import { PAIR_MOVES, pricedMid, refreshPair, type JumpGuard, type PairState } from '../../src/core/quotes/pair-state';
import { RateBook } from '../../src/core/quotes/rate-book';
import { pinInForce, pinRate, type RatePin } from '../../src/core/quotes/rate-pins';
import { setSpread } from '../../src/core/quotes/set-spread';
import { applySpread, spreadFor, Spreads, type SpreadChange } from '../../src/core/quotes/spread';
import { Decimal } from '../../src/core/shared/money';
import { ok } from '../../src/core/shared/result';

const NOW = new Date('2026-11-26T12:00:00Z');
const ago = (seconds: number) => new Date(NOW.getTime() - seconds * 1000);
const quote = (source: string, rate: string, secondsAgo = 10): SourceRate => ({ source, rate, at: ago(secondsAgo) });
const settings = (o: Partial<AggregationSettings> = {}): AggregationSettings => ({
  maxAgeMs: {}, defaultMaxAgeMs: 120_000, quorum: 2, bandPercent: '2', ...o,
});

describe('aggregateRates(): median of fresh sources', () => {
  it('answers the median of three fresh sources, exactly', () => {
    const result = aggregateRates([quote('a', '129.10'), quote('b', '129.35'), quote('c', '129.20')], NOW, settings());
    expect(result).toEqual(ok({ median: '129.2', used: expect.any(Array), leftOut: [] }));
  });

  it('answers the exact mean of the two middle rates for an even count (no float noise)', () => {
    expect(medianOf([new Decimal('0.1'), new Decimal('0.2')]).toString()).toBe('0.15');
    const result = aggregateRates([quote('a', '1535.1'), quote('b', '1535.2')], NOW, settings());
    expect(result.ok && result.value.median).toBe('1535.15');
  });

  it("leaves out a source whose own timestamp is older than its maximum age, and reports it as stale", () => {
    const result = aggregateRates([quote('a', '100'), quote('b', '101'), quote('c', '50', 121)], NOW, settings());
    expect(result.ok && result.value.median).toBe('100.5');
    expect(result.ok && result.value.leftOut).toEqual([{ source: 'c', rate: '50', at: ago(121), reason: 'stale' }]);
  });

  it('keeps a source exactly at its maximum age, and uses each source its own maximum age', () => {
    const exact = aggregateRates([quote('a', '100', 120), quote('b', '100', 120)], NOW, settings());
    expect(exact.ok).toBe(true);
    const perSource = aggregateRates([quote('slow', '100', 3000), quote('b', '100')], NOW, settings({ maxAgeMs: { slow: 3_600_000 } }));
    expect(perSource.ok).toBe(true);
    const tooOld = aggregateRates([quote('slow', '100', 3601), quote('b', '100')], NOW, settings({ maxAgeMs: { slow: 3_600_000 } }));
    expect(tooOld.ok).toBe(false);
  });

  it('answers rate_unavailable below the quorum of fresh sources, with what it left out', () => {
    const result = aggregateRates([quote('a', '100'), quote('b', '100', 500)], NOW, settings());
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.code).toBe('rate_unavailable');
    expect(result.details).toEqual({ fresh: 1, leftOut: [expect.objectContaining({ source: 'b', reason: 'stale' })] });
  });

  it('honours a configured quorum of 3 and of 1', () => {
    const two = [quote('a', '100'), quote('b', '100')];
    expect(aggregateRates(two, NOW, settings({ quorum: 3 })).ok).toBe(false);
    expect(aggregateRates([quote('a', '100')], NOW, settings({ quorum: 1 }))).toEqual(ok({ median: '100', used: [quote('a', '100')], leftOut: [] }));
  });

  it('never prices from a zero, negative or non-decimal rate: it counts as stale', () => {
    const result = aggregateRates([quote('a', '0'), quote('b', '-3'), quote('c', 'NaN'), quote('d', 'abc'), quote('e', '100')], NOW, settings({ quorum: 1 }));
    expect(result.ok && result.value.median).toBe('100');
    expect(result.ok && result.value.leftOut.map((l) => [l.source, l.reason])).toEqual([['a', 'stale'], ['b', 'stale'], ['c', 'stale'], ['d', 'stale']]);
  });
});

describe('aggregateRates(): deviation band', () => {
  it('leaves out a source more than the band from the median and reports its signed deviation', () => {
    const result = aggregateRates([quote('a', '100'), quote('b', '101'), quote('skewed', '110')], NOW, settings());
    expect(result.ok && result.value.median).toBe('100.5');
    expect(result.ok && result.value.leftOut).toEqual([
      { source: 'skewed', rate: '110', at: ago(10), reason: 'out_of_band', deviationPercent: '8.9109' },
    ]);
  });

  it('keeps a source exactly on the band edge', () => {
    const result = aggregateRates([quote('a', '100'), quote('b', '100'), quote('edge', '102')], NOW, settings());
    expect(result.ok && result.value.used.map((u) => u.source)).toEqual(['a', 'b', 'edge']);
  });

  it('answers rate_unavailable when too few sources stay in the band (two sources that disagree)', () => {
    const result = aggregateRates([quote('a', '100'), quote('b', '110')], NOW, settings());
    expect(result.ok).toBe(false);
    expect(!result.ok && result.details?.leftOut).toHaveLength(2);
  });
});

const guard: JumpGuard = { percent: '5', windowMs: 10 * 60_000 };
const at = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);
const median = (value: string) => ok({ median: value, used: [], leftOut: [] });
const lost = { ok: false as const, code: 'rate_unavailable' as const, message: 'quorum' };

/** Runs refreshes one minute apart from `awaiting`, checking each step against the move table. */
function run(...medians: (string | undefined)[]) {
  let state: PairState = { status: 'awaiting' };
  const moves: string[] = [];
  medians.forEach((value, minute) => {
    const step = refreshPair(state, value === undefined ? lost : median(value), at(minute), guard);
    expect(PAIR_MOVES[step.move].from).toContain(state.status);
    expect(step.state.status).toBe(PAIR_MOVES[step.move].to);
    state = step.state;
    moves.push(step.move);
  });
  return { state, moves, mid: pricedMid(state) };
}

describe('refreshPair(): jump guard state machine', () => {
  it('prices the first median and follows small moves', () => {
    expect(run('100', '104', '100')).toEqual({ state: expect.objectContaining({ status: 'live' }), moves: ['first_rate', 'update', 'update'], mid: '100' });
  });

  it('suspends a pair whose median moves more than the jump within the window: no price', () => {
    const { moves, mid, state } = run('100', '106');
    expect(moves).toEqual(['first_rate', 'jump']);
    expect(mid).toBeUndefined();
    expect(state).toEqual({ status: 'suspended', reference: { mid: '100', at: at(0) }, candidate: { mid: '106', at: at(1) } });
  });

  it('a second refresh confirming the new level resumes pricing at it', () => {
    expect(run('100', '106', '106.5')).toMatchObject({ moves: ['first_rate', 'jump', 'confirm'], mid: '106.5' });
  });

  it('a refresh back at the old level reverts the suspension', () => {
    expect(run('100', '120', '101')).toMatchObject({ moves: ['first_rate', 'jump', 'revert'], mid: '101' });
  });

  it('a refresh far from both waits on the new candidate', () => {
    expect(run('100', '120', '140')).toMatchObject({ moves: ['first_rate', 'jump', 'jump_again'], mid: undefined });
    expect(run('100', '120', '140', '141')).toMatchObject({ mid: '141' });
  });

  it('a move of exactly the jump percent is not a jump', () => {
    expect(run('100', '105').moves).toEqual(['first_rate', 'update']);
    expect(run('100', '95').moves).toEqual(['first_rate', 'update']);
    expect(run('100', '94.99').moves).toEqual(['first_rate', 'jump']);
  });

  it('a move larger than the jump but slower than the window is accepted', () => {
    const live: PairState = { status: 'live', current: { mid: '100', at: at(0) } };
    expect(refreshPair(live, median('110'), at(10), guard).move).toBe('jump');
    expect(refreshPair(live, median('110'), new Date(at(10).getTime() + 1), guard).move).toBe('update');
  });

  it('quorum lost answers no price from any state and keeps the last priced mid as the jump reference', () => {
    const { moves, state, mid } = run('100', undefined);
    expect(moves).toEqual(['first_rate', 'quorum_lost']);
    expect(mid).toBeUndefined();
    expect(state).toEqual({ status: 'unavailable', reference: { mid: '100', at: at(0) } });
    expect(run(undefined).state).toEqual({ status: 'unavailable', reference: undefined });
    expect(run('100', '120', undefined).state).toEqual({ status: 'unavailable', reference: { mid: '100', at: at(0) } });
  });

  it('quorum back near the reference prices again; quorum back after a jump is suspended', () => {
    expect(run('100', undefined, '101')).toMatchObject({ moves: ['first_rate', 'quorum_lost', 'quorum_back'], mid: '101' });
    expect(run('100', undefined, '110')).toMatchObject({ moves: ['first_rate', 'quorum_lost', 'jump'], mid: undefined });
    expect(run(undefined, '110')).toMatchObject({ moves: ['quorum_lost', 'quorum_back'], mid: '110' });
  });
});

describe('spread', () => {
  const table = { default: '1', byCorridor: { 'KE:MOMO': '0.5', '*:BANK': '0.75' } };

  it('picks the corridor and method, else any country for the method, else the default', () => {
    expect(spreadFor(table, 'MOMO', 'KE')).toBe('0.5');
    expect(spreadFor(table, 'BANK', 'NG')).toBe('0.75');
    expect(spreadFor(table, 'MOMO', 'UG')).toBe('1');
    expect(spreadFor(table, 'MOMO')).toBe('1');
  });

  it('lowers the mid by the spread, cut at 6 places toward the service', () => {
    expect(applySpread('129.2', '0.5')).toBe('128.554');
    expect(applySpread('100', '0')).toBe('100');
    expect(applySpread('1.2345678', '0')).toBe('1.234567');
    expect(applySpread('3.333333333', '1')).toBe('3.299999');
  });
});

describe('pinned rates', () => {
  const pair = { fiat: 'ZAR' as const, stablecoin: 'USDC' as const };
  const pin = (o: Partial<RatePin> = {}): RatePin => ({
    id: 'pin_1', ...pair, rate: '18.2', reason: 'incident', createdBy: 'key_1', createdAt: at(0), expiresAt: at(30), ...o,
  });
  const book = () => new RateBook([pair], { aggregation: settings(), jump: guard });

  it('a pin wins over the sources until it expires, then the book prices again; the newest pin wins', () => {
    const b = book();
    b.record('a', { rates: [{ ...pair, rate: '18', at: at(0) }], problems: [] });
    b.record('b', { rates: [{ ...pair, rate: '18', at: at(0) }], problems: [] });
    b.refresh(at(0));
    expect(b.mid(pair, at(1))).toBe('18');
    b.setPins([pin(), pin({ id: 'pin_0', rate: '17.5', createdAt: ago(60) })]);
    expect(b.mid(pair, at(1))).toBe('18.2');
    expect(b.mid(pair, at(29))).toBe('18.2');
    expect(b.mid(pair, at(30))).toBe('18');
    expect(pinInForce([pin({ expiresAt: at(0) })], pair, at(0))).toBeUndefined();
  });

  it('a pin prices a pair that has no live rate (quorum lost), and shows in the view', () => {
    const b = book();
    b.refresh(at(0));
    expect(b.mid(pair, at(1))).toBeUndefined();
    b.addPin(pin());
    expect(b.mid(pair, at(1))).toBe('18.2');
    expect(b.view(at(1))[0]).toMatchObject({ pair: 'USDC/ZAR', status: 'unavailable', mid: '18.2', pin: { id: 'pin_1', rate: '18.2', createdBy: 'key_1' } });
    expect(b.view(at(31))[0]).toMatchObject({ mid: null, pin: null });
  });

  it('pinRate(): validates, stores the audit record and applies it; refused without live sources', async () => {
    const stored: RatePin[] = [];
    const applied: RatePin[] = [];
    let n = 0;
    const deps = {
      pins: { insert: async (p: RatePin) => void stored.push(p), active: async () => stored },
      clock: { now: () => NOW }, ids: { next: (prefix: string) => `${prefix}_${++n}`, uuid: () => 'u' },
      quotes: (p: { fiat: string }) => p.fiat === 'ZAR', onPinned: (p: RatePin) => void applied.push(p),
    };
    const command = { fiat: 'ZAR', stablecoin: 'USDC', rate: '18.20', expiresInMinutes: 60, reason: ' treasury desk ' };
    const pinned = await pinRate(deps, command, 'key_9');
    expect(pinned).toEqual(ok({
      id: 'pin_1', fiat: 'ZAR', stablecoin: 'USDC', rate: '18.2', reason: 'treasury desk', createdBy: 'key_9', createdAt: NOW, expiresAt: new Date(NOW.getTime() + 3_600_000),
    }));
    expect([stored, applied]).toEqual([[pinned.ok && pinned.value], [pinned.ok && pinned.value]]);
    for (const [patch, field] of [
      [{ fiat: 'KES' }, 'fiat'], [{ stablecoin: 'DAI' }, 'fiat'], [{ rate: '0' }, 'rate'], [{ rate: '-1' }, 'rate'], [{ rate: '1e3' }, 'rate'],
      [{ expiresInMinutes: 0 }, 'expiresInMinutes'], [{ expiresInMinutes: 1441 }, 'expiresInMinutes'], [{ expiresInMinutes: 1.5 }, 'expiresInMinutes'],
      [{ reason: '  ' }, 'reason'], [{ reason: 'x'.repeat(201) }, 'reason'],
    ] as const) {
      const refused = await pinRate(deps, { ...command, ...patch }, 'key_9');
      expect({ patch, code: !refused.ok && refused.code, field: !refused.ok && refused.details?.field }).toEqual({ patch, code: 'validation_error', field });
    }
    expect(stored).toHaveLength(1);
    expect((await pinRate({ ...deps, quotes: undefined }, command, 'key_9')).ok).toBe(false);
  });
});

describe('operator-set spreads', () => {
  const change = (corridor: string, percent: string, minute: number): SpreadChange => ({
    id: `spr_${minute}`, corridor, percent, reason: 'r', createdBy: 'key_1', createdAt: at(minute),
  });

  it('the latest change per corridor wins over the configured table; *:* replaces the default', () => {
    const spreads = new Spreads({ default: '0', byCorridor: { 'ZA:BANK': '0.5' } });
    expect(spreads.table()).toEqual({ default: '0', byCorridor: { 'ZA:BANK': '0.5' } });
    spreads.set([change('ZA:BANK', '0.8', 2), change('ZA:BANK', '0.6', 1), change('*:*', '0.25', 1)]);
    expect(spreads.table()).toEqual({ default: '0.25', byCorridor: { 'ZA:BANK': '0.8' } });
    spreads.add(change('KE:MOMO', '1', 3));
    expect(spreadFor(spreads.table(), 'MOMO', 'KE')).toBe('1');
  });

  it('setSpread(): validates, stores the audit record and applies it', async () => {
    const stored: SpreadChange[] = [];
    let n = 0;
    const deps = { spreads: { insert: async (c: SpreadChange) => void stored.push(c), latest: async () => stored }, clock: { now: () => NOW }, ids: { next: (p: string) => `${p}_${++n}`, uuid: () => 'u' } };
    const set = await setSpread(deps, { country: 'KE', paymentMethod: 'MOMO', percent: '0.50', reason: 'float costs' }, 'key_2');
    expect(set).toEqual(ok({ id: 'spr_1', corridor: 'KE:MOMO', percent: '0.5', reason: 'float costs', createdBy: 'key_2', createdAt: NOW }));
    expect((await setSpread(deps, { country: '*', paymentMethod: '*', percent: '0', reason: 'default' }, 'key_2')).ok).toBe(true);
    for (const [patch, field] of [
      [{ country: 'FR' }, 'country'], [{ paymentMethod: 'CARD' }, 'paymentMethod'], [{ paymentMethod: '*' }, 'paymentMethod'],
      [{ percent: '10.01' }, 'percent'], [{ percent: '-1' }, 'percent'], [{ percent: '0.12345' }, 'percent'], [{ reason: '' }, 'reason'],
    ] as const) {
      const base = { country: 'KE', paymentMethod: 'MOMO', percent: '1', reason: 'r' };
      const refused = await setSpread(deps, { ...base, ...patch }, 'key_2');
      expect({ patch, field: !refused.ok && refused.details?.field }).toEqual({ patch, field });
    }
    expect(stored).toHaveLength(2);
  });
});

describe('per-pair quorum (RATES_PAIR_QUORUMS)', () => {
  const kes = { fiat: 'KES' as const, stablecoin: 'USDC' as const };
  const zar = { fiat: 'ZAR' as const, stablecoin: 'USDC' as const };

  it('a pair with its own quorum of 1 prices from its one source; the others keep the default of 2', () => {
    const b = new RateBook([kes, zar], { aggregation: settings(), jump: guard, quorumByPair: { 'USDC/KES': 1 } });
    b.record('coinbase', { rates: [{ ...kes, rate: '129.3', at: at(0) }, { ...zar, rate: '18', at: at(0) }], problems: [] });
    b.refresh(at(0));
    expect([b.mid(kes, at(1)), b.mid(zar, at(1))]).toEqual(['129.3', undefined]);
    expect(b.basis(kes, at(1))).toEqual({ origin: 'live', mid: '129.3', sources: [{ source: 'coinbase', rate: '129.3', at: at(0) }], pinId: null });
  });
});
