import { randomUUID } from 'node:crypto';
import { applyProviderReport, processDuePayments } from '../../src/core/payments/advance-payment';
import { createMoneyOut } from '../../src/core/payments/create-money-out';
import type { Payment } from '../../src/core/payments/payment';
import type { MismatchKind, ReconciliationChecks } from '../../src/core/reconciliation/reconciliation-ports';
import { resolveStuckPayments } from '../../src/core/reconciliation/resolve-stuck-payments';
import { command, fakeWorld, TENANT, type FakeWorld } from '../support/fake-world';

/**
 * A provider status its adapter does not map (`pending` with `unknownStatus`) never waits silently:
 * the payout worker and callbacks record it for operators, and the reconciliation worker keeps it
 * as a finding while it lasts (docs/decisions.md § Reconciliation).
 */
describe('unknown provider statuses', () => {
  let world: FakeWorld;
  beforeEach(() => {
    world = fakeWorld();
    world.store.fund(TENANT, 'USDC', '100');
  });

  const newPayment = async (): Promise<string> => {
    const r = await createMoneyOut(world.moneyOut, TENANT, randomUUID(), command({ reference: `order-${randomUUID()}` }));
    if (!r.ok) throw new Error(r.message);
    return r.value.payment.id;
  };
  const stored = (id: string): Payment => world.store.payments.get(id)!;
  const pass = () => processDuePayments(world.advance, 10);
  const accepted = async (): Promise<string> => {
    const id = await newPayment();
    world.provider.onSubmit(id, { kind: 'accepted', providerRef: 'TRF_1' });
    await pass();
    expect(stored(id).status).toBe('provider_accepted');
    return id;
  };

  it('a status query answering an unmapped status records it, then waits as pending would', async () => {
    const id = await accepted();
    world.provider.onStatus(id, { kind: 'pending', afterMs: 900_000, providerRef: 'TRF_1', unknownStatus: 'under_review' });
    await pass();
    expect(world.unknownStatuses).toEqual([{ paymentId: id, tenantId: TENANT, provider: 'scripted', providerStatus: 'under_review', seenAt: world.clock.now() }]);
    expect(stored(id)).toMatchObject({ status: 'provider_accepted', nextActionAt: new Date(world.clock.now().getTime() + 900_000) });
  });

  it('a plain pending records nothing', async () => {
    const id = await accepted();
    world.provider.onStatus(id, { kind: 'pending', afterMs: 60_000 });
    await pass();
    expect(world.unknownStatuses).toEqual([]);
  });

  it('the provider\'s word is kept printable and short', async () => {
    const id = await accepted();
    world.provider.onStatus(id, { kind: 'pending', afterMs: 60_000, unknownStatus: `new\nstatus\u0000${'x'.repeat(200)}` });
    await pass();
    expect(world.unknownStatuses[0]!.providerStatus).toBe(`new?status?${'x'.repeat(69)}`);
  });

  it('an unmapped status in a callback is recorded under the reporting provider; a submission still unknown is accepted by its reference', async () => {
    const id = await newPayment();
    world.provider.onSubmit(id, { kind: 'unknown', reason: 'timeout' });
    await pass();
    expect(stored(id)).toMatchObject({ status: 'initiated', provider: 'scripted' });
    const verdict = await applyProviderReport(world.advance, {
      provider: 'scripted', paymentId: id, outcome: { kind: 'pending', afterMs: 60_000, providerRef: 'TRF_9', unknownStatus: 'ONGOING' },
    });
    expect(verdict).toBe('applied');
    expect(world.unknownStatuses).toMatchObject([{ paymentId: id, provider: 'scripted', providerStatus: 'ONGOING' }]);
    expect(stored(id)).toMatchObject({ status: 'provider_accepted', providerRef: 'TRF_9' });
  });

  it('the reconciliation worker keeps the finding while the provider still answers it, and clears it once the status is mapped', async () => {
    const id = await accepted();
    const recorded: Array<{ kind: MismatchKind; detail: string } | null> = [];
    const checks: ReconciliationChecks = {
      claimStuck: async () => [stored(id)],
      recordCheck: async (check) => void recorded.push(check.finding),
      listFindings: async () => [],
      recordUnknownStatus: async () => undefined,
    };
    const deps = { ...world.advance, checks, providers: { providerOf: async () => world.provider }, stuckAfterSeconds: 1800, recheckSeconds: 900 };
    world.provider.onStatus(id, { kind: 'pending', afterMs: 900_000, unknownStatus: 'under_review' }, { kind: 'pending', afterMs: 60_000 });
    await resolveStuckPayments(deps, 10);
    await resolveStuckPayments(deps, 10);
    expect(recorded).toEqual([
      { kind: 'unknown_provider_status', detail: 'scripted answered status "under_review", which we do not map: the payment waits for an operator' },
      null,
    ]);
    expect(stored(id).status).toBe('provider_accepted');
  });
});
