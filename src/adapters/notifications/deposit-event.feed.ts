import type { Logger } from 'pino';
import type { DepositView } from '../../core/deposits/deposit';
import { DEPOSIT_EVENTS_CHANNEL, parseDepositEventNotice } from '../persistence/notify-channels';
import type { NotificationSubscriptions } from './notification-listener';
import type { TenantEventBus } from './tenant-event.bus';

/** Port: deposits of some tenants changed since an instant, as their API views (the catch-up after a reconnection). */
export interface DepositChanges {
  changedSince(tenantIds: readonly string[], since: Date, limit: number): Promise<Array<{ tenantId: string; deposit: DepositView }>>;
}

/** What the feed needs: the catch-up read, the process's listener, and where it publishes. */
export interface DepositEventFeedDeps {
  readonly changes: DepositChanges;
  readonly listener: NotificationSubscriptions;
  readonly bus: TenantEventBus<DepositView>;
  readonly logger: Logger;
}

const CATCH_UP_MARGIN_MS = 30_000;
const CATCH_UP_LIMIT = 1000;
/** (deposit, status, height) triples remembered to drop duplicates. */
const SEEN_LIMIT = 50_000;

/**
 * Cross-replica fan-out of deposit changes (docs/decisions.md § Onchain deposits): on the
 * process's LISTEN connection it hears every committed deposit event (the NOTIFY carries the
 * deposit as the event shows it) and publishes it on the tenant bus in commit order, for the
 * `depositUpdated` subscription. After a reconnection, deposits of subscribed tenants changed
 * meanwhile are published in their latest state.
 */
export class DepositEventFeed {
  private readonly seen = new Set<string>();
  private tail: Promise<void> = Promise.resolve();
  private lastEventAt = new Date();

  constructor(private readonly deps: DepositEventFeedDeps) {
    deps.listener.on(DEPOSIT_EVENTS_CHANNEL, (payload) => {
      const notice = parseDepositEventNotice(payload);
      if (notice && deps.bus.hasListeners(notice.tenantId)) this.publish(notice.tenantId, notice.deposit);
    });
    deps.listener.onReconnect(() => {
      const since = new Date(this.lastEventAt.getTime() - CATCH_UP_MARGIN_MS);
      this.tail = this.tail
        .then(() => deps.changes.changedSince(deps.bus.tenants(), since, CATCH_UP_LIMIT))
        .then((changed) => changed.forEach((c) => this.publish(c.tenantId, c.deposit)))
        .catch((error) => deps.logger.warn({ err: error }, 'deposit changes could not be caught up'));
    });
  }

  /** Resolves once the catch-up under way (if any) has published. */
  async drain(): Promise<void> {
    await this.tail;
  }

  private publish(tenantId: string, deposit: DepositView): void {
    const key = `${deposit.id}:${deposit.status}:${deposit.height ?? ''}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    if (this.seen.size > SEEN_LIMIT) this.seen.delete(this.seen.values().next().value as string);
    this.lastEventAt = new Date();
    this.deps.bus.publish(tenantId, deposit);
  }
}
