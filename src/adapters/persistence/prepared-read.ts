import type { EntityManager } from '@mikro-orm/postgresql';

/** The part of a node-postgres client the hot paths use directly. */
export interface PgClient {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: Record<string, unknown>[] }>;
  /** A simple query: `text` may hold several statements separated by semicolons, sent as one message. */
  query(text: string): Promise<unknown>;
}

interface KnexPool {
  acquireConnection(): Promise<PgClient>;
  releaseConnection(connection: PgClient): Promise<unknown>;
}

/**
 * Runs `work` on a connection borrowed from the ORM's own pool and hands it back afterwards
 * (docs/decisions.md § Performance), outside the ORM's query building and transaction handling.
 * `work` must leave the connection as it found it: no open transaction. For the hottest paths only.
 */
export async function withPooledConnection<T>(em: EntityManager, work: (connection: PgClient) => Promise<T>): Promise<T> {
  const pool = em.getConnection().getKnex().client as KnexPool;
  const connection = await pool.acquireConnection();
  try {
    return await work(connection);
  } finally {
    await pool.releaseConnection(connection);
  }
}

/**
 * Runs one read outside any transaction as a named prepared statement (`name`, `text` with `$n`
 * placeholders) on a pooled connection (docs/decisions.md § Performance). PostgreSQL parses and
 * plans it once per connection; after that each call is one bind and execute, and no query text is
 * built or escaped per call. For the hottest reads only (GET of one payment); everything else goes
 * through the ORM.
 */
export async function preparedRead(em: EntityManager, name: string, text: string, values: unknown[]): Promise<Record<string, unknown>[]> {
  return withPooledConnection(em, async (connection) => (await connection.query({ name, text, values })).rows);
}
