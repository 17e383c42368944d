import DataLoader from 'dataloader';
import type { Logger } from 'pino';
import type { PaymentView } from '../../core/payments/payment-view';
import type { PaymentEventReader, TenantPaymentView } from '../persistence/payment-event.repository';
import { PAYMENT_EVENTS_CHANNEL, parsePaymentEventNotice } from '../persistence/notify-channels';
import type { NotificationSubscriptions } from './notification-listener';
import type { TenantEventBus } from './tenant-event.bus';

/** What the feed needs: where it reads views, the process's listener, and where it publishes. */
export interface PaymentEventFeedDeps {
  readonly events: PaymentEventReader;
  /** The process's one LISTEN connection; the feed registers its handlers on it and never starts or stops it. */
  readonly listener: NotificationSubscriptions;
  readonly bus: TenantEventBus<PaymentView>;
  readonly logger: Logger;
}

/** How far back a catch-up after a reconnection looks, before the last event seen. */
const CATCH_UP_MARGIN_MS = 30_000;
const CATCH_UP_LIMIT = 1000;
/** (payment, status) pairs remembered to drop duplicates; a payment reaches each status once. */
const SEEN_LIMIT = 50_000;

/**
 * Cross-replica fan-out of payment changes (docs/decisions.md § GraphQL): on the process's LISTEN
 * connection it hears every committed payment event (NOTIFY from the outbox writer), loads each
 * view from its outbox row through the PaymentEventReader port (batched: one query for all notices
 * that arrive together) and publishes it on the tenant bus, in commit order. Nothing is loaded for a tenant
 * nobody in this process subscribes to. After a reconnection, payments of subscribed tenants
 * updated meanwhile are published in their latest state (intermediate states missed during the
 * outage are not replayed).
 */
export class PaymentEventFeed {
  private readonly views: DataLoader<string, TenantPaymentView | undefined>;
  private readonly seen = new Set<string>();
  private tail: Promise<void> = Promise.resolve();
  private lastEventAt = new Date();

  constructor(private readonly deps: PaymentEventFeedDeps) {
    this.views = new DataLoader((ids) => deps.events.viewsOfEvents(ids), { cache: false });
    deps.listener.on(PAYMENT_EVENTS_CHANNEL, (payload) => this.onNotice(payload));
    deps.listener.onReconnect(() => this.enqueue(this.catchUp()));
  }

  /** Resolves once every notice heard so far is published (call it after the listener stops). */
  async drain(): Promise<void> {
    await this.tail;
  }

  private onNotice(payload: string): void {
    const notice = parsePaymentEventNotice(payload);
    if (!notice || !this.deps.bus.hasListeners(notice.tenantId)) return;
    // Loads start at once (and batch); publication waits its turn so order is commit order.
    this.enqueue(this.views.load(notice.id).then((view) => (view ? [view] : [])));
  }

  private enqueue(loading: Promise<TenantPaymentView[]>): void {
    this.tail = this.tail
      .then(() => loading)
      .then((views) => views.forEach((view) => this.publish(view)))
      .catch((error) => this.deps.logger.warn({ err: error }, 'payment event could not be loaded'));
  }

  private publish(view: TenantPaymentView): void {
    const key = `${view.id}:${view.status}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    if (this.seen.size > SEEN_LIMIT) this.seen.delete(this.seen.values().next().value as string);
    const at = new Date(view.updatedAt);
    if (at > this.lastEventAt) this.lastEventAt = at;
    const { tenantId, ...publicView } = view;
    this.deps.bus.publish(tenantId, publicView);
  }

  /** Latest state of the subscribed tenants' payments updated since shortly before the last event seen. */
  private async catchUp(): Promise<TenantPaymentView[]> {
    const since = new Date(this.lastEventAt.getTime() - CATCH_UP_MARGIN_MS);
    return this.deps.events.updatedSince(this.deps.bus.tenants(), since, CATCH_UP_LIMIT);
  }
}
