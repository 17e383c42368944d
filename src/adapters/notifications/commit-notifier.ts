import { Client, type ClientConfig } from 'pg';
import type { Logger } from 'pino';
import type { AfterCommitNotifier, ChannelNotice } from '../persistence/commit-notices';

/** What the notifier needs of the process's listener: local delivery, and which sender to skip. */
export interface LocalNotifications {
  deliverLocally(channel: string, payload: string): void;
  ignoreSender(pid: number | undefined): void;
}

/**
 * Wake-ups after commit (docs/decisions.md § Performance: no NOTIFY in a money-out's
 * transaction): each committed transaction's notices are handed to this process's handlers at
 * once, and to every other replica by NOTIFY on a connection of its own. NOTIFYs are coalesced:
 * at most one statement is in flight, and the notices asked for meanwhile go out together in the
 * next one, each (channel, payload) once. That connection commits with `synchronous_commit = off`:
 * a NOTIFY-only transaction holds PostgreSQL's notification-queue lock until its commit, and its
 * commit record carries nothing worth a WAL flush. Its own notifications come back to this
 * process's listener, which drops them (they were delivered locally). A failed send is logged
 * and dropped: a lost notice only delays (the feeds and workers also look on their own schedule).
 */
export class PgCommitNotifier implements AfterCommitNotifier {
  private readonly pending = new Map<string, ChannelNotice>();
  private sending?: Promise<void>;
  private stopped = false;
  private client?: Client;

  constructor(private readonly config: ClientConfig, private readonly local: LocalNotifications, private readonly logger: Logger) {}

  notify(notices: Iterable<ChannelNotice>): void {
    for (const notice of notices) {
      this.local.deliverLocally(notice.channel, notice.payload);
      this.pending.set(`${notice.channel}\u0000${notice.payload}`, notice);
    }
    this.kick();
  }

  /** Resolves once nothing is being sent; later notices are delivered locally only. Closes the connection. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.sending;
    const client = this.client;
    this.client = undefined;
    this.local.ignoreSender(undefined);
    await client?.end().catch(() => undefined);
  }

  /** Starts sending unless a send runs; one that ends looks again for notices added as it finished. */
  private kick(): void {
    if (this.sending || this.stopped || this.pending.size === 0) return;
    this.sending = this.flush().finally(() => {
      this.sending = undefined;
      this.kick();
    });
  }

  private async flush(): Promise<void> {
    while (this.pending.size > 0 && !this.stopped) {
      const batch = [...this.pending.values()];
      this.pending.clear();
      const calls = batch.map((_, i) => `pg_notify($${2 * i + 1}, $${2 * i + 2})`).join(', ');
      try {
        const client = this.client ?? (await this.connect());
        await client.query(`select ${calls}`, batch.flatMap((n) => [n.channel, n.payload]));
      } catch (error) {
        this.logger.warn({ err: error, channels: batch.map((n) => n.channel) }, 'notice after commit not sent (readers catch up on their own schedule)');
        await this.drop();
      }
    }
  }

  private async connect(): Promise<Client> {
    const client = new Client(this.config);
    client.on('error', (error) => this.logger.warn({ err: error }, 'notifier connection error'));
    client.on('end', () => {
      if (this.client === client) void this.drop();
    });
    let pid: number | undefined;
    try {
      await client.connect();
      await client.query('set synchronous_commit to off');
      pid = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]?.pid;
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    this.client = client;
    this.local.ignoreSender(pid);
    return client;
  }

  private async drop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.local.ignoreSender(undefined);
    await client?.end().catch(() => undefined);
  }
}
