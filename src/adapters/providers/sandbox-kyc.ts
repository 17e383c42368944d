import type { Customer, KycOutcome, KycProvider } from '../../core/customers/customer';
import type { Clock } from '../../core/shared/clock';

/**
 * Sandbox KYC (docs/decisions.md § Sandbox values): after `delayMs` from creation, approves, or rejects when the id number
 * ends in 0000. Stateless, so any replica and a restarted worker give the same answer.
 */
export class SandboxKycProvider implements KycProvider {
  constructor(private readonly clock: Clock, private readonly delayMs: number) {}

  async check(customer: Customer): Promise<KycOutcome> {
    const wait = customer.createdAt.getTime() + this.delayMs - this.clock.now().getTime();
    if (wait > 0) return { kind: 'pending', afterMs: wait };
    return customer.idNumber.endsWith('0000')
      ? { kind: 'rejected', reason: 'Identity document could not be verified' }
      : { kind: 'approved' };
  }
}
