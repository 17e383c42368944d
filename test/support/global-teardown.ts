import type { EmbeddedDatabase } from '../../src/app/embedded-database';

/** Stops the embedded server global-setup started, if any. */
export default async function globalTeardown(): Promise<void> {
  await (globalThis as { __embeddedDb?: EmbeddedDatabase }).__embeddedDb?.stop();
}
