import { Client, type ClientConfig } from 'pg';
import type { Logger } from 'pino';

/** Handlers per channel; `onReconnect` runs after a reconnection, since notifications sent meanwhile were missed. */
export interface ListenerHandlers {
  readonly channels: Readonly<Record<string, (payload: string) => void>>;
  readonly onReconnect?: () => void;
}

const MAX_BACKOFF_MS = 10_000;

/**
 * LISTEN on a dedicated PostgreSQL connection (docs/decisions.md § GraphQL: fan-out across replicas without an
 * extra server), reconnecting with back-off when the connection drops. NOTIFY sent inside a
 * transaction arrives here only after that transaction commits.
 */
export class PgNotificationListener {
  private client?: Client;
  private stopped = false;
  private attempt = 0;

  constructor(private readonly config: ClientConfig, private readonly handlers: ListenerHandlers, private readonly logger: Logger) {}

  async start(): Promise<void> {
    this.stopped = false;
    await this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new Client(this.config);
    client.on('notification', (msg) => this.handlers.channels[msg.channel]?.(msg.payload ?? ''));
    client.on('error', (error) => this.logger.warn({ err: error }, 'notification listener connection error'));
    client.on('end', () => {
      if (this.client === client && !this.stopped) this.reconnectSoon();
    });
    try {
      await client.connect();
      for (const channel of Object.keys(this.handlers.channels)) await client.query(`listen "${channel.replace(/"/g, '')}"`);
      this.client = client;
      if (this.attempt > 0) this.handlers.onReconnect?.();
      this.attempt = 0;
    } catch (error) {
      this.logger.warn({ err: error }, 'notification listener could not connect');
      await client.end().catch(() => undefined);
      if (!this.stopped) this.reconnectSoon();
    }
  }

  private reconnectSoon(): void {
    this.client = undefined;
    this.attempt += 1;
    const delay = Math.min(MAX_BACKOFF_MS, 100 * 2 ** this.attempt);
    setTimeout(() => void (this.stopped ? undefined : this.connect()), delay).unref();
  }
}
