import { randomUUID } from 'node:crypto';
import { processDuePayments, type AdvanceDeps } from '../../src/core/payments/advance-payment';
import { createMoneyOut } from '../../src/core/payments/create-money-out';
import type { OutcomeSample, ProviderOutcomeWindow, RoutingDecisionLog } from '../../src/core/routing/provider-outcomes';
import type { PayoutCorridor, ProviderRouting } from '../../src/core/routing/provider-routing';
import type { RouteScoringDeps } from '../../src/core/routing/route-ranking';
import type { RoutingDecision, RoutingStrategy, WindowFigures } from '../../src/core/routing/success-rate-scoring';
import { command, fakeWorld, TENANT, type FakeWorld } from '../support/fake-world';
import { ScriptedProvider } from '../support/fakes';

/** An in-memory outcome window: the samples as recorded, summed per provider from `since` on. */
class MemoryWindow implements ProviderOutcomeWindow {
  readonly samples: OutcomeSample[] = [];
  readonly asked: Array<{ corridor: PayoutCorridor; since: Date }> = [];
  async record(sample: OutcomeSample): Promise<void> {
    this.samples.push(sample);
  }
  async figures(corridor: PayoutCorridor, since: Date): Promise<ReadonlyMap<string, WindowFigures>> {
    this.asked.push({ corridor, since });
    const sums = new Map<string, { successes: number; failures: number; latencyMsSum: number; latencySamples: number }>();
    for (const s of this.samples.filter((x) => x.at >= since && x.corridor.paymentCode === corridor.paymentCode)) {
      const f = sums.get(s.provider) ?? { successes: 0, failures: 0, latencyMsSum: 0, latencySamples: 0 };
      if (s.outcome === 'success') f.successes += 1;
      if (s.outcome === 'failure') f.failures += 1;
      if (s.latencyMs !== undefined) { f.latencyMsSum += s.latencyMs; f.latencySamples += 1; }
      sums.set(s.provider, f);
    }
    return sums;
  }
}

class MemoryDecisions implements RoutingDecisionLog {
  readonly byPayment = new Map<string, RoutingDecision>();
  async record(paymentId: string, _at: Date, decision: RoutingDecision): Promise<void> {
    this.byPayment.set(paymentId, decision);
  }
  async find(paymentId: string) {
    const decision = this.byPayment.get(paymentId);
    return decision ? { decidedAt: new Date(0), decision } : undefined;
  }
}

/**
 * The payout use case routed on measured success (docs/decisions.md § Payout providers: routing
 * on measured success), with two scripted providers at the core's edge and in-memory ports.
 */
describe('payouts routed on measured success', () => {
  let world: FakeWorld;
  let first: ScriptedProvider;
  let second: ScriptedProvider;
  let window: MemoryWindow;
  let decisions: MemoryDecisions;
  let deps: AdvanceDeps;
  let strategy: RoutingStrategy;
  let firstHealthy: boolean;
  const WINDOW_MS = 600_000;

  beforeEach(() => {
    world = fakeWorld({ leaseMs: 30_000 });
    world.store.fund(TENANT, 'USDC', '1000');
    first = new ScriptedProvider('first');
    second = new ScriptedProvider('second');
    window = new MemoryWindow();
    decisions = new MemoryDecisions();
    strategy = 'success_rate';
    firstHealthy = true;
    const routing: ProviderRouting = {
      payoutProvidersFor: () => (firstHealthy
        ? { kind: 'providers', providers: [first, second], strategy, candidates: [{ name: 'first', healthy: true }, { name: 'second', healthy: true }] }
        : { kind: 'providers', providers: [second], strategy, candidates: [{ name: 'first', healthy: false }, { name: 'second', healthy: true }] }),
      payoutProviderNamed: (_env, name) => [first, second].find((p) => p.name === name),
      kycProviderFor: () => ({ kind: 'unavailable', reason: 'none' }),
    };
    let tick = 0;
    const scoring: RouteScoringDeps = {
      window, decisions, random: () => 0.99, nowMs: () => (tick += 7),
      settings: { windowMs: WINDOW_MS, minSamples: 3, hedgeShare: 0.05, bandPoints: 2, neutralSuccessRate: 0.9 },
    };
    deps = { ...world.advance, routing, scoring };
  });

  const newPayment = async (): Promise<string> => {
    const r = await createMoneyOut({ ...world.moneyOut, routing: deps.routing }, TENANT, randomUUID(), command({ reference: `o-${randomUUID()}` }));
    if (!r.ok) throw new Error(r.message);
    return r.value.payment.id;
  };
  const stored = (id: string) => world.store.payments.get(id)!;
  const pass = async () => {
    world.clock.advance(60_000);
    return processDuePayments(deps, 10);
  };
  const seed = (provider: string, successes: number, failures: number) => {
    for (let i = 0; i < successes + failures; i += 1) {
      window.samples.push({ provider, corridor: { country: 'KE', paymentMethod: 'MOMO', paymentCode: 'MPESA' }, at: world.clock.now(), outcome: i < successes ? 'success' : 'failure' });
    }
  };

  it('sends a payment to the provider with the better success rate over the window, and records the decision', async () => {
    seed('first', 2, 8);
    seed('second', 10, 0);
    const id = await newPayment();
    await pass();
    expect(window.asked.at(-1)?.since).toEqual(new Date(world.clock.now().getTime() - WINDOW_MS));
    await pass();
    expect(stored(id)).toMatchObject({ status: 'succeeded', provider: 'second' });
    expect(first.calls).toEqual([]);
    expect(decisions.byPayment.get(id)).toMatchObject({
      strategy: 'success_rate', reason: 'ranked', hedged: false, order: ['second', 'first'],
      candidates: [{ name: 'first', successRate: 0.2, successes: 2, failures: 8 }, { name: 'second', successRate: 1 }],
    });
  });

  it('outcomes older than the window do not count', async () => {
    seed('first', 0, 10);
    world.clock.advance(WINDOW_MS + 1);
    seed('second', 1, 9);
    const id = await newPayment();
    await pass();
    // first's failures left the window: its rate is unknown (neutral 90 %), over second's 10 %.
    expect(stored(id).provider).toBe('first');
  });

  it('the ordered strategy keeps the table order whatever the figures', async () => {
    strategy = 'ordered';
    seed('first', 0, 10);
    seed('second', 10, 0);
    const id = await newPayment();
    await pass();
    expect(stored(id).provider).toBe('first');
    expect(decisions.byPayment.get(id)).toMatchObject({ strategy: 'ordered', reason: 'ordered', order: ['first', 'second'] });
  });

  it('never routes to a provider whose breaker is open, even with the best figures', async () => {
    firstHealthy = false;
    seed('first', 10, 0);
    seed('second', 0, 10);
    const id = await newPayment();
    await pass();
    expect(stored(id).provider).toBe('second');
    expect(decisions.byPayment.get(id)).toMatchObject({ reason: 'sole', order: ['second'], candidates: [{ name: 'first', healthy: false }, { name: 'second', healthy: true }] });
  });

  it('an unknown submission never fails over, even once the other provider ranks better', async () => {
    const id = await newPayment();
    first.onSubmit(id, { kind: 'unknown', reason: 'timeout' });
    await pass();
    expect(stored(id)).toMatchObject({ status: 'initiated', provider: 'first', submittedAt: expect.any(Date) });
    // The other provider now looks far better: still only first is asked, by status query.
    seed('first', 0, 10);
    seed('second', 10, 0);
    first.onStatus(id, { kind: 'pending', afterMs: 1000 }, { kind: 'succeeded', providerRef: 'R1' });
    await pass();
    await pass();
    expect(second.calls).toEqual([]);
    expect(first.calls.map((c) => c.call)).toEqual(['submit', 'status', 'status']);
    expect(stored(id)).toMatchObject({ status: 'succeeded', provider: 'first' });
  });

  it('counts only provider-attributable outcomes: success, provider failure, unanswered; not a recipient\'s invalid account', async () => {
    const ok = await newPayment();
    await pass();
    const recipient = await newPayment();
    first.onSubmit(recipient, { kind: 'rejected', reason: 'no such account', code: 'recipient_account_invalid' });
    await pass();
    const providerFault = await newPayment();
    first.onSubmit(providerFault, { kind: 'accepted', providerRef: 'P1' });
    first.onStatus(providerFault, { kind: 'failed', reason: 'system error', code: 'provider_error' });
    await pass();
    const retried = await newPayment();
    first.onSubmit(retried, { kind: 'retry', afterMs: 1000 });
    await pass();
    await pass();
    const counted = (outcome: string) => window.samples.filter((s) => s.outcome === outcome).map((s) => s.provider);
    expect([stored(ok).status, stored(recipient).status, stored(providerFault).status, stored(retried).status]).toEqual(['succeeded', 'failed', 'failed', 'succeeded']);
    // ok and retried (at second, after first's retry) succeeded; only providerFault failed against first.
    expect(counted('success').sort()).toEqual(['first', 'second']);
    expect(counted('failure')).toEqual(['first']);
    // Every answered submission gave a latency sample; the retry did not.
    expect(window.samples.filter((s) => s.latencyMs !== undefined).map((s) => s.provider)).toEqual(['first', 'first', 'first', 'second']);
  });
});
