import type { Logger } from 'pino';
import type { PaymentView } from '../../core/payments/payment-view';
import type { PaymentEventReader } from '../persistence/payment-event.repository';
import { PAYMENT_EVENTS_CHANNEL } from '../persistence/notify-channels';
import type { NotificationSubscriptions } from './notification-listener';
import type { TenantEventBus } from './tenant-event.bus';

/** What the feed needs: where it reads events, the process's listener, and where it publishes. */
export interface PaymentEventFeedDeps {
  readonly events: PaymentEventReader;
  /** The process's one LISTEN connection; the feed registers its handlers on it and never starts or stops it. */
  readonly listener: NotificationSubscriptions;
  readonly bus: TenantEventBus<PaymentView>;
  readonly logger: Logger;
  /** While someone subscribes, the feed also reads on its own this often (ms): a notice lost with a crashed writer delays, never loses. */
  readonly pollMs?: number;
  /** With nobody subscribed, a wake moves the cursor on at most this often (ms), reading no rows. */
  readonly idleAdvanceMs?: number;
}

const POLL_MS = 1000;
const IDLE_ADVANCE_MS = 100;

/**
 * Cross-replica fan-out of payment changes (docs/decisions.md § GraphQL): woken by a notice
 * (after a commit of this process, or PAYMENT_EVENTS_CHANNEL from another), after the listener
 * reconnects, and every `pollMs` while someone subscribes, it reads the payment events committed
 * since its last read through the PaymentEventReader port (one statement, only the tenants someone
 * in this process subscribes to) and publishes each view on the tenant bus, in commit order. The
 * cursor is the reader's, kept in memory: a read after any outage (LISTEN connection lost,
 * notices lost, a statement failed) returns exactly what committed meanwhile, no event twice, none
 * that rolled back. One read at a time; wakes during a read make one more read after it.
 */
export class PaymentEventFeed {
  private cursor?: string;
  private reading?: Promise<void>;
  private again = false;
  private lastReadAt = 0;
  private idleTimer?: NodeJS.Timeout;
  private readonly poller: NodeJS.Timeout;
  private stopped = false;

  constructor(private readonly deps: PaymentEventFeedDeps) {
    deps.listener.on(PAYMENT_EVENTS_CHANNEL, () => this.wake());
    deps.listener.onReconnect(() => this.wake());
    this.poller = setInterval(() => {
      if (deps.bus.tenants().length > 0) this.wake();
    }, deps.pollMs ?? POLL_MS);
    this.poller.unref();
  }

  /** Takes the starting cursor (nothing committed before counts); call once the database is reachable. */
  async start(): Promise<void> {
    this.wake();
    await this.drain();
  }

  /** Asks for a read of what committed since the last one (coalesced with a read under way). */
  wake(): void {
    if (this.stopped) return;
    if (this.reading) {
      this.again = true;
      return;
    }
    // Nobody listens: move the cursor on now and then, reading no rows, so a first subscriber starts near now.
    const idleFor = Date.now() - this.lastReadAt;
    const idleAdvanceMs = this.deps.idleAdvanceMs ?? IDLE_ADVANCE_MS;
    if (this.cursor !== undefined && this.deps.bus.tenants().length === 0 && idleFor < idleAdvanceMs) {
      this.idleTimer ??= setTimeout(() => {
        this.idleTimer = undefined;
        this.wake();
      }, idleAdvanceMs - idleFor).unref();
      return;
    }
    this.reading = this.read().finally(() => {
      this.reading = undefined;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  /** Resolves once the reads under way (and those they asked for) have published. */
  async drain(): Promise<void> {
    while (this.reading) await this.reading;
  }

  /** Stops reading (after the reads under way). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.poller);
    if (this.idleTimer) clearTimeout(this.idleTimer);
    await this.drain();
  }

  private async read(): Promise<void> {
    this.lastReadAt = Date.now();
    const from = this.cursor;
    try {
      const tenants = this.deps.bus.tenants();
      const read = await this.deps.events.eventsSince(from, tenants);
      // A tenant first subscribed while the read ran may have had events committed after it
      // subscribed inside this read's window: read that window again for it.
      const asked = new Set(tenants);
      const late = this.deps.bus.tenants().filter((t) => !asked.has(t));
      const extra = late.length > 0 && from !== undefined ? (await this.deps.events.eventsSince(from, late, read.cursor)).views : [];
      this.cursor = read.cursor;
      for (const { tenantId, ...view } of [...read.views, ...extra]) this.deps.bus.publish(tenantId, view);
    } catch (error) {
      // The cursor stays: the next read (a wake, the poll) returns these events too.
      this.deps.logger.warn({ err: error }, 'payment events could not be read');
    }
  }
}
