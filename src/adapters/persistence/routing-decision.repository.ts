import type { EntityManager } from '@mikro-orm/postgresql';
import type { RoutingDecisionLog } from '../../core/routing/provider-outcomes';
import type { RoutingDecision } from '../../core/routing/success-rate-scoring';

/**
 * Each payment's latest routing decision in `payment_routing_decisions` (RoutingDecisionLog port;
 * docs/decisions.md § Payout providers: routing on measured success): a payment decided again
 * (its unknown submission was not found, or every provider said retry) keeps the newest.
 */
export class RoutingDecisionRepository implements RoutingDecisionLog {
  constructor(private readonly em: EntityManager) {}

  async record(paymentId: string, decidedAt: Date, decision: RoutingDecision): Promise<void> {
    await this.em.getConnection().execute(
      `insert into payment_routing_decisions (payment_id, decided_at, decision) values (?, ?, ?::jsonb)
       on conflict (payment_id) do update set decided_at = excluded.decided_at, decision = excluded.decision`,
      [paymentId, decidedAt, JSON.stringify(decision)],
    );
  }

  async find(paymentId: string): Promise<{ readonly decidedAt: Date; readonly decision: RoutingDecision } | undefined> {
    const rows = await this.em.getConnection().execute<Array<{ decided_at: Date; decision: RoutingDecision }>>(
      'select decided_at, decision from payment_routing_decisions where payment_id = ?', [paymentId],
    );
    const row = rows[0];
    return row ? { decidedAt: new Date(row.decided_at), decision: row.decision } : undefined;
  }
}
