import type { EntityManager } from '@mikro-orm/postgresql';

/** The part of a node-postgres client a prepared read uses. */
interface PgClient {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: Record<string, unknown>[] }>;
}

/**
 * Runs one read outside any transaction as a named prepared statement (`name`, `text` with `$n`
 * placeholders) on a connection borrowed from the ORM's own pool and handed back at once
 * (docs/decisions.md § Performance). PostgreSQL parses and plans it once per connection; after
 * that each call is one bind and execute, and no query text is built or escaped per call. For the
 * hottest reads only (GET of one payment); everything else goes through the ORM.
 */
export async function preparedRead(em: EntityManager, name: string, text: string, values: unknown[]): Promise<Record<string, unknown>[]> {
  const client = em.getConnection().getKnex().client as {
    acquireConnection(): Promise<PgClient>;
    releaseConnection(connection: PgClient): Promise<unknown>;
  };
  const connection = await client.acquireConnection();
  try {
    return (await connection.query({ name, text, values })).rows;
  } finally {
    await client.releaseConnection(connection);
  }
}
