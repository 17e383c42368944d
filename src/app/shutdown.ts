import type { Logger } from 'pino';
import type { HttpServer } from '../adapters/http/listening-server';
import type { Container } from './container';
import type { Database } from './database';
import type { EmbeddedDatabase } from './embedded-database';

/** What a running service holds, in the order it was opened. */
export interface RunningService {
  readonly http: HttpServer;
  readonly container: Container;
  readonly database: Database;
  readonly embedded?: EmbeddedDatabase;
  /** Stops periodic jobs (the purge) and resolves when a pass in progress has ended. */
  readonly stopTimers: () => Promise<void>;
}

/**
 * Stops the service in order (docs/decisions.md § Running it), each step after the previous one:
 * 1. /readyz answers 503, the listening socket closes and WebSockets close with 1001; the workers
 *    start no new pass;
 * 2. in-flight HTTP requests finish, for at most `graceMs` milliseconds, then open connections are cut;
 * 3. workers end after their current pass, periodic jobs stop;
 * 4. the webhook transport and the LISTEN connection (key revocations, payment events) close;
 * 5. the database pool closes, then the embedded PostgreSQL (when this process started it) stops.
 * `graceMs` after the start, provider calls and webhook sends still in flight are aborted (a warn
 * line), so a hung provider cannot hold the stop past the grace period: an aborted submission's
 * outcome is unknown, and the next start asks the provider about it, never submits it again.
 * Logs "shutting down" when it begins and "stopped" once at the end; never throws (a failing step is
 * logged at error level and the next steps still run).
 */
export async function shutdownInOrder(service: RunningService, signal: string, graceMs: number, logger: Logger): Promise<void> {
  const startedAt = Date.now();
  logger.info({ signal, graceMs }, 'shutting down');
  service.container.beginShutdown();
  let cutting: Promise<unknown> = Promise.resolve();
  const deadline = setTimeout(() => {
    logger.warn({ graceMs }, 'grace period over: provider calls and webhook sends still in flight are aborted');
    cutting = service.container.cutOutboundCalls().catch((error: unknown) => logger.error({ err: error, step: 'cut outbound calls' }, 'shutdown step failed'));
  }, graceMs);
  const step = async (name: string, run: () => Promise<unknown>) => {
    try {
      await run();
    } catch (error) {
      logger.error({ err: error, step: name }, 'shutdown step failed');
    }
  };
  await step('http', async () => {
    const [{ cut }] = await Promise.all([service.http.drain(graceMs), service.container.graphql.closeRealtime()]);
    if (cut > 0) logger.warn({ cut, graceMs }, 'requests still running at the end of the grace period were cut');
  });
  await step('workers', async () => {
    await service.stopTimers();
    await service.container.stop();
  });
  clearTimeout(deadline);
  await cutting;
  await step('database', () => service.database.close());
  if (service.embedded) await step('embedded database', () => service.embedded!.stop());
  logger.info({ signal, ms: Date.now() - startedAt }, 'stopped');
}
