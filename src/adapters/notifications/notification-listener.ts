import { Client, type ClientConfig } from 'pg';
import type { Logger } from 'pino';

/** Receives one notification's payload (a string; empty when the NOTIFY had none). */
export type NotificationHandler = (payload: string) => void;

/**
 * Where a component registers what it wants to hear: handlers per channel, and what to do after a
 * reconnection (notifications sent while the connection was down are lost, so a reader catches up
 * or drops its caches). Registering works before and after `start()`.
 */
export interface NotificationSubscriptions {
  on(channel: string, handler: NotificationHandler): void;
  onReconnect(handler: () => void): void;
}

const MAX_BACKOFF_MS = 10_000;

/**
 * The process's one PostgreSQL LISTEN connection (docs/decisions.md § GraphQL: fan-out across
 * replicas without an extra server), shared by every component that listens (payment events, key
 * revocations): each registers its handlers, the container starts and stops it once. Reconnects
 * with back-off when the connection drops, LISTENs again on every registered channel, then runs the
 * reconnect handlers. NOTIFY sent inside a transaction arrives here only after that transaction
 * commits. A handler that throws is logged; the other handlers still run.
 */
export class PgNotificationListener implements NotificationSubscriptions {
  private readonly channels = new Map<string, Set<NotificationHandler>>();
  private readonly reconnectHandlers = new Set<() => void>();
  private client?: Client;
  private ownSender?: number;
  private stopped = true;
  private attempt = 0;

  constructor(private readonly config: ClientConfig, private readonly logger: Logger) {}

  on(channel: string, handler: NotificationHandler): void {
    let handlers = this.channels.get(channel);
    if (!handlers) {
      this.channels.set(channel, (handlers = new Set()));
      // A channel added while connected is listened to at once; otherwise `connect` covers it.
      this.client?.query(listenStatement(channel)).catch((error) => this.logger.warn({ err: error, channel }, 'LISTEN failed'));
    }
    handlers.add(handler);
  }

  onReconnect(handler: () => void): void {
    this.reconnectHandlers.add(handler);
  }

  /**
   * Hands `payload` to this process's handlers of `channel` now, as if it had been heard: how a
   * commit of this process wakes its own readers without a round trip (PgCommitNotifier).
   */
  deliverLocally(channel: string, payload: string): void {
    this.dispatch(channel, payload);
  }

  /**
   * Notifications sent by the backend `pid` are dropped: this process's own notifier, whose
   * notices were already delivered locally. Undefined forgets it.
   */
  ignoreSender(pid: number | undefined): void {
    this.ownSender = pid;
  }

  /** Opens the connection and LISTENs on every registered channel; resolves once listening (or retrying). */
  async start(): Promise<void> {
    this.stopped = false;
    await this.connect();
  }

  /** Closes the connection; no reconnection follows. Call it before the database pool closes. */
  async stop(): Promise<void> {
    this.stopped = true;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new Client(this.config);
    client.on('notification', (msg) => {
      if (msg.processId !== this.ownSender || this.ownSender === undefined) this.dispatch(msg.channel, msg.payload ?? '');
    });
    client.on('error', (error) => this.logger.warn({ err: error }, 'notification listener connection error'));
    client.on('end', () => {
      if (this.client === client && !this.stopped) this.reconnectSoon();
    });
    try {
      await client.connect();
      for (const channel of this.channels.keys()) await client.query(listenStatement(channel));
      this.client = client;
      if (this.attempt > 0) this.each(this.reconnectHandlers, (handler) => handler());
      this.attempt = 0;
    } catch (error) {
      this.logger.warn({ err: error }, 'notification listener could not connect');
      await client.end().catch(() => undefined);
      if (!this.stopped) this.reconnectSoon();
    }
  }

  private dispatch(channel: string, payload: string): void {
    this.each(this.channels.get(channel) ?? [], (handler) => handler(payload));
  }

  private each<H>(handlers: Iterable<H>, run: (handler: H) => void): void {
    for (const handler of handlers) {
      try {
        run(handler);
      } catch (error) {
        this.logger.error({ err: error }, 'notification handler failed');
      }
    }
  }

  private reconnectSoon(): void {
    this.client = undefined;
    this.attempt += 1;
    const delay = Math.min(MAX_BACKOFF_MS, 100 * 2 ** this.attempt);
    setTimeout(() => void (this.stopped ? undefined : this.connect()), delay).unref();
  }
}

/** `listen "<channel>"`; channel names are the service's own constants, quotes stripped all the same. */
function listenStatement(channel: string): string {
  return `listen "${channel.replace(/"/g, '')}"`;
}
