import type { EntityManager } from '@mikro-orm/postgresql';
import type { PaymentView } from '../../core/payments/payment-view';
import { preparedRead } from './prepared-read';

/** A payment view with the tenant it belongs to (the live feed's routing key; never published). */
export type TenantPaymentView = PaymentView & { readonly tenantId: string };

/** The payment events committed between two reads, and where the next read starts. */
export interface CommittedPaymentEvents {
  /** Opaque position to pass to the next read (a PostgreSQL snapshot as text, e.g. `734:736:734`). */
  readonly cursor: string;
  /** The view each event recorded (the payment as of that event), in commit order. */
  readonly views: TenantPaymentView[];
}

/** Port: what the live payment feed reads (docs/decisions.md § GraphQL). */
export interface PaymentEventReader {
  /**
   * The payment events of `tenantIds` committed after the read that returned `cursor` and before
   * this one (or, with `until`, before the read that returned `until`), each exactly once across
   * consecutive reads, in commit order, none of a transaction that did not commit. Without a
   * cursor: none, and the cursor to start from (everything committed before counts as read).
   */
  eventsSince(cursor: string | undefined, tenantIds: readonly string[], until?: string): Promise<CommittedPaymentEvents>;
}

/**
 * Rows whose writing transaction (`xid`) the previous snapshot ($1) did not see (started after it,
 * or in progress then) and this statement's snapshot (or the later one $3) sees: committed between
 * them, so each in exactly one of consecutive reads, never one that rolled back (its rows are
 * visible to no snapshot). Within a read, `seq` orders them: a transaction that waits for a
 * payment's row lock draws its `seq` after the transaction holding it committed.
 */
const EVENTS_SINCE_SQL = `
select s.snap::text as cursor,
       (select coalesce(json_agg(json_build_object('tenantId', e.tenant_id, 'view', e.payload) order by e.seq), '[]'::json)
          from outbox_events e
         where (e.xid >= pg_snapshot_xmax($1::pg_snapshot) or e.xid = any(array(select pg_snapshot_xip($1::pg_snapshot))))
           and e.xid < pg_snapshot_xmax(s.snap) and pg_visible_in_snapshot(e.xid, s.snap)
           and e.tenant_id = any($2::text[]) and e.type like 'payment.%') as events
  from (select coalesce($3::pg_snapshot, pg_current_snapshot()) as snap) s`;

/**
 * PaymentEventReader on PostgreSQL (docs/decisions.md § GraphQL, the live feed): outbox rows by
 * the writing transaction's id against two snapshots, ordered by their sequence. One statement per
 * read; no rows are read for an empty tenant list.
 */
export class PaymentEventRepository implements PaymentEventReader {
  constructor(private readonly em: EntityManager) {}

  async eventsSince(cursor: string | undefined, tenantIds: readonly string[], until?: string): Promise<CommittedPaymentEvents> {
    if (cursor === undefined || tenantIds.length === 0) {
      const [row] = await preparedRead(this.em, 'payment_events_cursor', 'select pg_current_snapshot()::text as cursor', []);
      return { cursor: String(row!.cursor), views: [] };
    }
    const [row] = await preparedRead(this.em, 'payment_events_since', EVENTS_SINCE_SQL, [cursor, [...tenantIds], until ?? null]);
    const events = row!.events as { tenantId: string; view: PaymentView }[];
    return { cursor: String(row!.cursor), views: events.map((e) => ({ ...e.view, tenantId: e.tenantId })) };
  }
}
