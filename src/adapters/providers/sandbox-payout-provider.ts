import type { Payment } from '../../core/payments/payment';
import type { PayoutProvider, StatusOutcome, SubmitOutcome } from '../../core/payments/payout-provider';
import type { Clock } from '../../core/shared/clock';

/** Delays of the sandbox provider in milliseconds (SANDBOX_ACCEPT_DELAY_MS, SANDBOX_RESULT_DELAY_MS). */
export interface SandboxDelays {
  readonly acceptDelayMs: number;
  readonly resultDelayMs: number;
}

/** How long a `3333` payout waits between looks while nobody simulates its result. */
const HELD_RECHECK_MS = 60_000;

/**
 * The sandbox payout provider (docs/decisions.md § Sandbox values): deterministic from the account number's last four
 * digits, like a payment network's test mode. `0000` rejected at submission; `1111` accepted then
 * failed; `2222` accepted then refunded; `3333` stays accepted until an admin simulates a result;
 * anything else succeeds. Stateless: outcomes and timing derive from the payment itself, so any
 * replica, and a restarted worker, gives the same answer (submission is idempotent per payment).
 */
export class SandboxPayoutProvider implements PayoutProvider {
  readonly name = 'sandbox';

  constructor(private readonly clock: Clock, private readonly delays: SandboxDelays) {}

  async submit(payment: Payment): Promise<SubmitOutcome> {
    const wait = payment.createdAt.getTime() + this.delays.acceptDelayMs - this.clock.now().getTime();
    if (wait > 0) return { kind: 'retry', afterMs: wait };
    if (magicOf(payment) === '0000') return { kind: 'rejected', reason: 'Recipient account rejected by the provider', code: 'recipient_account_invalid' };
    return { kind: 'accepted', providerRef: `sbx_${payment.id.slice(4)}` };
  }

  async status(payment: Payment): Promise<StatusOutcome> {
    // Stateless: a payment it has not accepted yet (a worker stopped mid-submit) was never taken,
    // and submitting it again gives the same answer.
    if (payment.status === 'initiated') return { kind: 'not_found' };
    const acceptedAt = (payment.acceptedAt ?? payment.updatedAt).getTime();
    const wait = acceptedAt + this.delays.resultDelayMs - this.clock.now().getTime();
    if (wait > 0) return { kind: 'pending', afterMs: wait };
    switch (magicOf(payment)) {
      case '1111':
        return { kind: 'failed', reason: 'Payout failed at the recipient institution', code: 'declined' };
      case '2222':
        return { kind: 'refunded', reason: 'Payout returned; funds sent to the refund address', code: 'reversed' };
      case '3333':
        return { kind: 'pending', afterMs: HELD_RECHECK_MS };
      default:
        return { kind: 'succeeded' };
    }
  }
}

function magicOf(payment: Payment): string {
  return payment.accountNumber.slice(-4);
}
