import type { EntityManager } from '@mikro-orm/postgresql';
import DataLoader from 'dataloader';
import type { ClientConfig } from 'pg';
import type { Logger } from 'pino';
import { toPaymentView, type PaymentView } from '../../core/payments/payment-view';
import { API_KEY_REVOKED_CHANNEL } from '../persistence/api-key.repository';
import { PgNotificationListener } from '../persistence/notification-listener';
import { PaymentSchema } from '../persistence/schemas/payment.schema';
import { PAYMENT_EVENTS_CHANNEL, parsePaymentEventNotice } from './payment-event.channel';
import type { TenantEventBus } from './tenant-event.bus';

/** What the feed needs: the ORM for reads, where to LISTEN, and where to publish. */
export interface PaymentEventFeedDeps {
  readonly em: EntityManager;
  /** Connection settings of the dedicated LISTEN connection (the ORM's own). */
  readonly connection: ClientConfig;
  readonly bus: TenantEventBus<PaymentView>;
  readonly logger: Logger;
  /** Called with the id of every revoked API key, on every replica (closes its sockets). */
  readonly onKeyRevoked?: (keyId: string) => void;
}

/** A payment view with the tenant it belongs to (the bus's routing key; never published). */
type TenantView = PaymentView & { readonly tenantId: string };

/** How far back a catch-up after a reconnection looks, before the last event seen. */
const CATCH_UP_MARGIN_MS = 30_000;
const CATCH_UP_LIMIT = 1000;
/** (payment, status) pairs remembered to drop duplicates; a payment reaches each status once. */
const SEEN_LIMIT = 50_000;

/**
 * Cross-replica fan-out of payment changes (docs/decisions.md § GraphQL): a dedicated PostgreSQL LISTEN
 * connection with reconnection hears every committed payment event (NOTIFY from the outbox
 * writer), loads each view from its outbox row (batched: one query for all notices that arrive
 * together) and publishes it on the tenant bus, in commit order. Nothing is loaded for a tenant
 * nobody in this process subscribes to. After a reconnection, payments of subscribed tenants
 * updated meanwhile are published in their latest state (intermediate states missed during the
 * outage are not replayed). Also relays API key revocations.
 */
export class PaymentEventFeed {
  private readonly listener: PgNotificationListener;
  private readonly views: DataLoader<string, TenantView | undefined>;
  private readonly seen = new Set<string>();
  private tail: Promise<void> = Promise.resolve();
  private lastEventAt = new Date();

  constructor(private readonly deps: PaymentEventFeedDeps) {
    this.views = new DataLoader((ids) => this.loadViews(ids), { cache: false });
    this.listener = new PgNotificationListener(deps.connection, {
      channels: {
        [PAYMENT_EVENTS_CHANNEL]: (payload) => this.onNotice(payload),
        [API_KEY_REVOKED_CHANNEL]: (keyId) => deps.onKeyRevoked?.(keyId),
      },
      onReconnect: () => this.enqueue(this.catchUp()),
    }, deps.logger);
  }

  async start(): Promise<void> {
    this.lastEventAt = new Date();
    await this.listener.start();
  }

  async stop(): Promise<void> {
    await this.listener.stop();
    await this.tail;
  }

  private onNotice(payload: string): void {
    const notice = parsePaymentEventNotice(payload);
    if (!notice || !this.deps.bus.hasListeners(notice.tenantId)) return;
    // Loads start at once (and batch); publication waits its turn so order is commit order.
    this.enqueue(this.views.load(notice.id).then((view) => (view ? [view] : [])));
  }

  private enqueue(loading: Promise<TenantView[]>): void {
    this.tail = this.tail
      .then(() => loading)
      .then((views) => views.forEach((view) => this.publish(view)))
      .catch((error) => this.deps.logger.warn({ err: error }, 'payment event could not be loaded'));
  }

  private publish(view: TenantView): void {
    const key = `${view.id}:${view.status}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    if (this.seen.size > SEEN_LIMIT) this.seen.delete(this.seen.values().next().value as string);
    const at = new Date(view.updatedAt);
    if (at > this.lastEventAt) this.lastEventAt = at;
    const { tenantId, ...publicView } = view;
    this.deps.bus.publish(tenantId, publicView);
  }

  /** Views (with their tenant) of outbox events by id; undefined for ids not found. */
  private async loadViews(ids: readonly string[]): Promise<Array<TenantView | undefined>> {
    const rows = await this.deps.em.getConnection().execute<{ id: string; tenant_id: string; payload: PaymentView }[]>(
      `select id, tenant_id, payload from outbox_events where id in (${ids.map(() => '?').join(', ')})`, [...ids]);
    const byId = new Map(rows.map((row) => [row.id, { ...row.payload, tenantId: row.tenant_id }]));
    return ids.map((id) => byId.get(id));
  }

  /** Latest state of the subscribed tenants' payments updated since shortly before the last event seen. */
  private async catchUp(): Promise<TenantView[]> {
    const tenants = this.deps.bus.tenants();
    if (tenants.length === 0) return [];
    const since = new Date(this.lastEventAt.getTime() - CATCH_UP_MARGIN_MS);
    const em = this.deps.em.fork();
    const rows = await em.execute<Record<string, unknown>[]>(
      `select * from payments where tenant_id in (${tenants.map(() => '?').join(', ')}) and updated_at >= ?
        order by updated_at, id limit ?`, [...tenants, since, CATCH_UP_LIMIT]);
    return rows.map((row) => {
      const payment = em.map(PaymentSchema, row);
      return { ...toPaymentView(payment), tenantId: payment.tenantId };
    });
  }
}
