import { UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/postgresql';
import type { ProviderEvent, ProviderEventLog, RecordedEvent } from '../../core/payments/provider-event';
import { ProviderEventSchema } from './schemas/provider-event.schema';

/** The provider-events table (ProviderEventLog port), each write on a fresh fork and committed at once. */
export class ProviderEventRepository implements ProviderEventLog {
  constructor(private readonly em: EntityManager) {}

  /**
   * Inserts `event`, or finds the row already holding the same message (docs/decisions.md § Payout
   * providers: callbacks): the table's unique keys decide, so of two deliveries at once one is stored
   * and the other waits for it and finds it.
   */
  async record(event: ProviderEvent): Promise<RecordedEvent> {
    const em = this.em.fork();
    em.create(ProviderEventSchema, { ...event });
    try {
      await em.flush();
      return { stored: true };
    } catch (error) {
      if (!(error instanceof UniqueConstraintViolationException)) throw error;
    }
    const [existing] = await this.em.fork().getConnection().execute<Array<{ id: string; verdict: string }>>(
      `select id, verdict from provider_events
        where provider = ? and (content_hash = ? or (provider_event_id = ? and coalesce(outcome, '') = ? and content_hash is not null))
        order by received_at limit 1`,
      [event.provider, event.contentHash, event.providerEventId, event.outcome ?? ''],
    );
    // Unreachable unless the row was deleted between the two statements: then the conflict is gone too.
    if (!existing) throw new Error('provider event conflicted with a row that no longer exists');
    return { stored: false, existingId: existing.id, verdict: existing.verdict };
  }

  async setVerdict(id: string, verdict: string): Promise<void> {
    await this.em.fork().nativeUpdate(ProviderEventSchema, { id }, { verdict });
  }

  /** The events of one payment, oldest first (admin and tests). */
  async forPayment(paymentId: string): Promise<ProviderEvent[]> {
    return this.em.fork().find(ProviderEventSchema, { paymentId }, { orderBy: { receivedAt: 'asc' } });
  }
}
