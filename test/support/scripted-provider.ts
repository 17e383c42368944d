import type { Payment } from '../../src/core/payments/payment';
import type { PayoutProvider, StatusOutcome, SubmitOutcome } from '../../src/core/payments/payout-provider';

/**
 * A payout provider at the core's edge whose answers the test sets per payment: every submission
 * is accepted, and a status query answers what `answer` last set (by default `pending` for an hour,
 * so the payout worker leaves the payment alone and only the reconciliation worker asks again).
 */
export class ScriptedProvider implements PayoutProvider {
  readonly statusCalls: string[] = [];
  private readonly answers = new Map<string, StatusOutcome>();

  constructor(readonly name = 'scripted') {}

  /** Sets what `status()` answers for `paymentId` from now on. */
  answer(paymentId: string, outcome: StatusOutcome): void {
    this.answers.set(paymentId, outcome);
  }

  async submit(payment: Payment): Promise<SubmitOutcome> {
    return { kind: 'accepted', providerRef: `scr_${payment.id.slice(4)}` };
  }

  async status(payment: Payment): Promise<StatusOutcome> {
    this.statusCalls.push(payment.id);
    return this.answers.get(payment.id) ?? { kind: 'pending', afterMs: 3_600_000 };
  }
}
