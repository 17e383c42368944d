import { randomUUID } from 'node:crypto';
import { applyMove } from '../../src/core/payments/advance-payment';
import { createMoneyOut } from '../../src/core/payments/create-money-out';
import type { ShortfallChange } from '../../src/core/refunds/refund-funds';
import type { SendRefundDeps } from '../../src/core/refunds/send-refund';
import { FakeRefundChain } from './fake-refund-chain';
import { command, fakeWorld, TENANT, type FakeWorld } from './fake-world';
import { MemoryShortfallFindings } from './memory-shortfall-findings';

/** The refunds worker's pass on in-memory ports (docs/decisions.md § Refunds), for its unit tests. */
export interface RefundPassWorld {
  readonly world: FakeWorld;
  readonly chain: FakeRefundChain;
  readonly deps: SendRefundDeps;
  readonly findings: MemoryShortfallFindings;
  /** Every shortfall change the pass reported, in order. */
  readonly changes: ShortfallChange[];
  /**
   * A live payment of TENANT that failed after acceptance, so its refund is owed (created in
   * sandbox, then live: the fake allows the switch; the service never does).
   */
  pendingRefund(): Promise<{ refundId: string; paymentId: string; to: string }>;
}

/** A fresh world: TENANT funded with 100 USDC, a Solana fake chain, no findings. */
export function refundPassWorld(): RefundPassWorld {
  const world = fakeWorld();
  world.store.fund(TENANT, 'USDC', '100');
  const chain = new FakeRefundChain('SOLANA');
  const findings = new MemoryShortfallFindings();
  const changes: ShortfallChange[] = [];
  let n = 0;
  const deps: SendRefundDeps = {
    uow: world.store, sender: chain, clock: world.clock, newAttemptId: () => `rfa_${++n}`, newEventId: () => `evt-${++n}`, findings,
    onShortfall: (change) => changes.push(change),
  };
  async function pendingRefund(): Promise<{ refundId: string; paymentId: string; to: string }> {
    world.routing.add(TENANT, 'sandbox');
    const created = await createMoneyOut(world.moneyOut, TENANT, randomUUID(), command({ reference: `order-${randomUUID()}` }));
    if (!created.ok) throw new Error(created.message);
    const paymentId = created.value.payment.id;
    const accepted = await applyMove(world.advance, paymentId, 'accept', { providerRef: 'prov-1' });
    if (!accepted.ok) throw new Error(accepted.message);
    world.routing.add(TENANT, 'live');
    const failed = await applyMove(world.advance, paymentId, 'fail', { failure: { reason: 'gone', code: 'declined' } });
    if (!failed.ok) throw new Error(failed.message);
    const refund = [...world.store.refunds.values()].find((r) => r.paymentId === paymentId)!;
    return { refundId: refund.id, paymentId, to: refund.refundAddress };
  }
  return { world, chain, deps, findings, changes, pendingRefund };
}
