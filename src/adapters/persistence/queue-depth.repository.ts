import type { EntityManager } from '@mikro-orm/postgresql';

/** How many items each worker's queue holds right now. */
export interface QueueDepths {
  /** Payments with a next action scheduled (the payout worker's queue). */
  readonly payments: number;
  /** Webhook deliveries still pending (the webhook worker's queue). */
  readonly deliveries: number;
  /** Customers with a KYC check scheduled (the KYC worker's queue). */
  readonly kyc: number;
}

/** Queue depths for the metrics endpoint, in one statement. */
export class QueueDepthRepository {
  constructor(private readonly em: EntityManager) {}

  /** The three queues' depths; each count reads a partial index of its worker's queue, so a scrape stays cheap. */
  async depths(): Promise<QueueDepths> {
    const [row] = await this.em.getConnection().execute<QueueDepths[]>(
      `select (select count(*) from payments where next_action_at is not null)::int as payments,
              (select count(*) from webhook_deliveries where status = 'pending')::int as deliveries,
              (select count(*) from customers where next_check_at is not null)::int as kyc`);
    return row ?? { payments: 0, deliveries: 0, kyc: 0 };
  }
}
