import type { EntityManager } from '@mikro-orm/postgresql';
import type { OutboxEvent, OutboxWriter } from '../../core/events/outbox-event';
import { OutboxEventSchema } from './schemas/outbox.schema';

/** Appends outbox events inside the caller's transaction (DESIGN.md 5, 8). */
export class OutboxTxWriter implements OutboxWriter {
  constructor(private readonly em: EntityManager) {}

  async append(event: OutboxEvent): Promise<void> {
    await this.em.insert(OutboxEventSchema, { ...event });
  }
}
