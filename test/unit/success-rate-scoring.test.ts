import { seededRandom as seeded } from '../support/seeded-random';
import { decideRoute, type RouteCandidate, type ScoringSettings, type WindowFigures } from '../../src/core/routing/success-rate-scoring';

const settings: ScoringSettings = { minSamples: 20, hedgeShare: 0, bandPoints: 2, neutralSuccessRate: 0.9 };
const figures = (successes: number, failures: number, meanLatencyMs?: number): WindowFigures => ({
  successes, failures, latencyMsSum: meanLatencyMs === undefined ? 0 : meanLatencyMs * 10, latencySamples: meanLatencyMs === undefined ? 0 : 10,
});
const candidate = (name: string, f?: WindowFigures, healthy = true): RouteCandidate => ({ name, healthy, ...(f ? { figures: f } : {}) });
const never = () => { throw new Error('no draw expected'); };
const order = (candidates: RouteCandidate[], s: Partial<ScoringSettings> = {}, random: () => number = () => 0.99) =>
  decideRoute('success_rate', candidates, { ...settings, ...s }, random).order;

/** Routing on measured success (docs/decisions.md § Payout providers: routing on measured success). */
describe('decideRoute', () => {
  it('success_rate ranks the higher success rate first, whatever the table order', () => {
    expect(order([candidate('a', figures(70, 30)), candidate('b', figures(99, 1))])).toEqual(['b', 'a']);
    expect(order([candidate('a', figures(99, 1)), candidate('b', figures(70, 30))])).toEqual(['a', 'b']);
  });

  it('below the minimum sample a rate is unknown: the neutral rate stands in for it', () => {
    const decision = decideRoute('success_rate', [candidate('a', figures(5, 14)), candidate('b', figures(20, 0))], settings, () => 0.99);
    // a has 19 outcomes (5 % success), under 20: neutral 0.9, which ranks under b's 1.0.
    expect(decision.candidates.map((c) => c.successRate)).toEqual([null, 1]);
    expect(decision.order).toEqual(['b', 'a']);
    // With no figures at all, both are neutral: the table's order.
    expect(order([candidate('a'), candidate('b')])).toEqual(['a', 'b']);
    // A known 80 % ranks under an unknown (neutral 90 %); a known 95 % over it.
    expect(order([candidate('a', figures(80, 20)), candidate('b')])).toEqual(['b', 'a']);
    expect(order([candidate('a'), candidate('b', figures(95, 5))])).toEqual(['b', 'a']);
  });

  it('within one rate band the faster provider ranks first; unmeasured latency ranks last', () => {
    expect(order([candidate('a', figures(985, 15, 900)), candidate('b', figures(981, 19, 300))])).toEqual(['b', 'a']);
    expect(order([candidate('a', figures(99, 1)), candidate('b', figures(99, 1, 5000))])).toEqual(['b', 'a']);
    // Different bands: the rate wins over latency.
    expect(order([candidate('a', figures(99, 1, 5000)), candidate('b', figures(90, 10, 10))])).toEqual(['a', 'b']);
  });

  it('never puts a provider whose breaker is open in the order, nor hedges to it', () => {
    const candidates = [candidate('best', figures(100, 0), false), candidate('ok', figures(90, 10)), candidate('worse', figures(50, 50))];
    const random = seeded(7);
    for (let i = 0; i < 500; i += 1) {
      const decision = decideRoute('success_rate', candidates, { ...settings, hedgeShare: 0.5 }, random);
      expect(decision.order).not.toContain('best');
      expect(decision.candidates.map((c) => c.name)).toEqual(['best', 'ok', 'worse']);
    }
    expect(decideRoute('ordered', candidates, settings, never).order).toEqual(['ok', 'worse']);
    const none = decideRoute('success_rate', [candidate('a', undefined, false)], settings, never);
    expect([none.order, none.reason]).toEqual([[], 'ranked']);
  });

  it('keeps the hedged share on the others within tolerance over seeded draws', () => {
    const candidates = [candidate('bad', figures(70, 30)), candidate('good', figures(100, 0)), candidate('mid', figures(85, 15))];
    const random = seeded(42);
    const n = 20_000;
    const first: Record<string, number> = { bad: 0, good: 0, mid: 0 };
    let hedged = 0;
    for (let i = 0; i < n; i += 1) {
      const decision = decideRoute('success_rate', candidates, { ...settings, hedgeShare: 0.08 }, random);
      first[decision.order[0]!]! += 1;
      if (decision.hedged) {
        hedged += 1;
        expect(decision.reason).toBe('hedged');
        expect(decision.order[0]).not.toBe('good');
      } else expect([decision.reason, decision.order]).toEqual(['ranked', ['good', 'mid', 'bad']]);
    }
    expect(hedged / n).toBeGreaterThan(0.07);
    expect(hedged / n).toBeLessThan(0.09);
    // The hedged share is spread evenly over the two others.
    expect(first.bad! / n).toBeGreaterThan(0.03);
    expect(first.mid! / n).toBeGreaterThan(0.03);
    expect(first.good! / n).toBeGreaterThan(0.91);
  });

  it('ordered keeps the table order and never draws; one healthy candidate is sole', () => {
    const candidates = [candidate('a', figures(10, 90)), candidate('b', figures(100, 0))];
    expect(decideRoute('ordered', candidates, { ...settings, hedgeShare: 1 }, never)).toMatchObject({ strategy: 'ordered', reason: 'ordered', hedged: false, order: ['a', 'b'] });
    expect(decideRoute('success_rate', [candidate('a'), candidate('b', undefined, false)], { ...settings, hedgeShare: 1 }, never))
      .toMatchObject({ reason: 'sole', hedged: false, order: ['a'] });
  });

  it('records every candidate with its figures: rate to 4 decimals, mean latency in whole ms', () => {
    const decision = decideRoute('success_rate', [candidate('a', { successes: 2, failures: 1, latencyMsSum: 1001, latencySamples: 3 })], { ...settings, minSamples: 3 }, never);
    expect(decision.candidates).toEqual([{ name: 'a', healthy: true, successes: 2, failures: 1, successRate: 0.6667, meanLatencyMs: 334 }]);
  });
});
