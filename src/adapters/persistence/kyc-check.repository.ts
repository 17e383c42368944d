import { UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/postgresql';
import type { KycCheck, KycCheckStore } from '../../core/customers/kyc-check';
import { KycCheckSchema } from './schemas/kyc-check.schema';

/** The KYC checks table (KycCheckStore port), each write on a fresh fork and committed at once. */
export class KycCheckRepository implements KycCheckStore {
  constructor(private readonly em: EntityManager) {}

  async latest(customerId: string, provider: string): Promise<KycCheck | undefined> {
    const found = await this.em.fork().find(KycCheckSchema, { customerId, provider }, { orderBy: { attempt: 'desc' }, limit: 1 });
    return found[0];
  }

  async begin(check: KycCheck): Promise<'inserted' | 'duplicate'> {
    try {
      await this.em.fork().insert(KycCheckSchema, { ...check });
      return 'inserted';
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) return 'duplicate';
      throw error;
    }
  }

  async markSubmitted(customerId: string, provider: string, attempt: number): Promise<void> {
    await this.em.fork().nativeUpdate(KycCheckSchema, { customerId, provider, attempt, state: 'submitting' }, { state: 'submitted' });
  }

  async complete(customerId: string, provider: string, attempt: number, resultCode: string, rawAnswer: string, at: Date): Promise<void> {
    // Through the unit of work, so the raw answer goes through its sealed column type.
    const em = this.em.fork();
    const row = await em.findOne(KycCheckSchema, { customerId, provider, attempt });
    if (!row) return;
    em.assign(row, { state: 'completed', resultCode: resultCode.slice(0, 10), rawAnswer, completedAt: at });
    await em.flush();
  }

  /** Every attempt of a customer, oldest first (tests and audit). */
  async forCustomer(customerId: string): Promise<KycCheck[]> {
    return this.em.fork().find(KycCheckSchema, { customerId }, { orderBy: { provider: 'asc', attempt: 'asc' } });
  }
}
