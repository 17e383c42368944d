import type { EntityManager } from '@mikro-orm/postgresql';
import type { ProviderEvent, ProviderEventLog } from '../../core/payments/provider-event';
import { ProviderEventSchema } from './schemas/provider-event.schema';

/** The provider-events table (ProviderEventLog port), each write on a fresh fork and committed at once. */
export class ProviderEventRepository implements ProviderEventLog {
  constructor(private readonly em: EntityManager) {}

  async record(event: ProviderEvent): Promise<void> {
    const em = this.em.fork();
    em.create(ProviderEventSchema, { ...event });
    await em.flush();
  }

  async setVerdict(id: string, verdict: string): Promise<void> {
    await this.em.fork().nativeUpdate(ProviderEventSchema, { id }, { verdict });
  }

  /** The events of one payment, oldest first (admin and tests). */
  async forPayment(paymentId: string): Promise<ProviderEvent[]> {
    return this.em.fork().find(ProviderEventSchema, { paymentId }, { orderBy: { receivedAt: 'asc' } });
  }
}
