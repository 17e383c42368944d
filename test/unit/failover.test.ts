import { randomUUID } from 'node:crypto';
import { applyProviderReport, processDuePayments, type AdvanceDeps } from '../../src/core/payments/advance-payment';
import { createMoneyOut } from '../../src/core/payments/create-money-out';
import type { Payment } from '../../src/core/payments/payment';
import type { ProviderRouting } from '../../src/core/routing/provider-routing';
import { command, fakeWorld, TENANT, type FakeWorld } from '../support/fake-world';
import { ScriptedProvider } from '../support/fakes';

/**
 * Failover and never paying twice in the payout use case (docs/decisions.md § Payout providers:
 * routing and failover, § Payout providers: never pay twice), with two scripted providers routed
 * in order.
 */
describe('submitting through routed providers', () => {
  let world: FakeWorld;
  let first: ScriptedProvider;
  let second: ScriptedProvider;
  let deps: AdvanceDeps;
  /** What the stored payment looked like when each submit call was made. */
  let seenAtSubmit: Array<Pick<Payment, 'provider' | 'submittedAt'>>;
  beforeEach(() => {
    world = fakeWorld({ leaseMs: 30_000 });
    world.store.fund(TENANT, 'USDC', '100');
    first = new ScriptedProvider('first');
    second = new ScriptedProvider('second');
    seenAtSubmit = [];
    for (const provider of [first, second]) {
      const submit = provider.submit.bind(provider);
      provider.submit = async (payment) => {
        const { provider: name, submittedAt } = world.store.payments.get(payment.id)!;
        seenAtSubmit.push({ provider: name, submittedAt });
        return submit(payment);
      };
    }
    const routing: ProviderRouting = {
      payoutProvidersFor: () => ({ kind: 'providers', providers: [first, second] }),
      payoutProviderNamed: (_env, name) => [first, second].find((p) => p.name === name),
      kycProviderFor: () => ({ kind: 'unavailable', reason: 'none' }),
    };
    deps = { ...world.advance, routing };
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
  const calls = () => [...first.calls.map((c) => `first ${c.call}`), ...second.calls.map((c) => `second ${c.call}`)];

  it('writes the submission marker naming the provider before calling it', async () => {
    const id = await newPayment();
    await pass();
    expect(seenAtSubmit).toEqual([{ provider: 'first', submittedAt: expect.any(Date) }]);
    expect(stored(id)).toMatchObject({ status: 'provider_accepted', provider: 'first', providerRef: `ref_${id}` });
  });

  it('retry (certainly not taken) moves to the next provider in the same pass', async () => {
    const id = await newPayment();
    first.onSubmit(id, { kind: 'retry', afterMs: 1000 });
    await pass();
    expect(calls()).toEqual(['first submit', 'second submit']);
    expect(stored(id)).toMatchObject({ status: 'provider_accepted', provider: 'second' });
  });

  it('every provider answering retry: the marker is cleared and the payment waits the shortest delay', async () => {
    const id = await newPayment();
    first.onSubmit(id, { kind: 'retry', afterMs: 9000 });
    second.onSubmit(id, { kind: 'retry', afterMs: 4000 });
    await pass();
    expect(stored(id)).toMatchObject({ status: 'initiated', submittedAt: null, nextActionAt: new Date(world.clock.now().getTime() + 4000) });
  });

  it('unknown never fails over: the same provider is asked for its status, and not_found allows a new submission', async () => {
    const id = await newPayment();
    first.onSubmit(id, { kind: 'unknown', reason: 'timeout' });
    await pass();
    expect(calls()).toEqual(['first submit']);
    expect(stored(id)).toMatchObject({ status: 'initiated', provider: 'first', submittedAt: expect.any(Date) });
    first.onStatus(id, { kind: 'pending', afterMs: 1000 }, { kind: 'not_found' });
    await pass();
    expect(calls()).toEqual(['first submit', 'first status']);
    await pass();
    expect(calls()).toEqual(['first submit', 'first status', 'first status', 'first submit']);
    expect(stored(id)).toMatchObject({ status: 'provider_accepted', provider: 'first' });
    expect(second.calls).toEqual([]);
  });

  it('a submit that throws keeps the marker: the next look is a status query, whose success accepts and completes', async () => {
    const id = await newPayment();
    first.onSubmit(id, { throws: new Error('socket hang up') });
    await pass();
    first.onStatus(id, { kind: 'succeeded', providerRef: 'R1' });
    await pass();
    expect(calls()).toEqual(['first submit', 'first status']);
    expect(stored(id)).toMatchObject({ status: 'succeeded', providerRef: 'R1' });
    expect(world.store.outbox.filter((e) => e.entityId === id).map((e) => e.type)).toEqual(['payment.initiated', 'payment.processing', 'payment.succeeded']);
  });

  it('a callback applies only to the provider that has the payment, once', async () => {
    const id = await newPayment();
    first.onSubmit(id, { kind: 'unknown', reason: 'timeout' });
    await pass();
    const report = { paymentId: id, outcome: { kind: 'failed', reason: 'declined', code: 'declined' } } as const;
    expect(await applyProviderReport(deps, { ...report, provider: 'second' })).toBe('other_provider');
    expect(stored(id).status).toBe('initiated');
    expect(await applyProviderReport(deps, { ...report, provider: 'first' })).toBe('applied');
    expect(stored(id)).toMatchObject({ status: 'failed', failureReason: 'declined', failureCode: 'declined' });
    expect(await applyProviderReport(deps, { ...report, provider: 'first' })).toBe('final');
    expect(await applyProviderReport(deps, { ...report, provider: 'first', paymentId: 'pay_missing' })).toBe('unknown_payment');
  });
});
