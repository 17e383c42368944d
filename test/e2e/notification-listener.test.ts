import { randomUUID } from 'node:crypto';
import { MikroORM } from '@mikro-orm/postgresql';
import { Client } from 'pg';
import pino from 'pino';
import { ormOptions } from '../../src/adapters/persistence/mikro-orm.config';
import { gql, subscribe, subscribed } from '../support/graphql-client';
import { eventually, moneyOutBody, startTestService, type TestService } from '../support/test-service';
import { initSocket } from '../support/ws-socket';

/**
 * The process's one LISTEN connection: every reader (key revocations, the GraphQL payment feed)
 * registers on it. The service runs alone on a database of its own, so every LISTEN backend of that
 * database is this process's.
 */
describe('notification listener: one LISTEN connection per process', () => {
  const name = `listen_${process.pid}_${randomUUID().slice(0, 8)}`;
  const serverUrl = new URL(process.env.TEST_DATABASE_URL!);
  const databaseUrl = Object.assign(new URL(serverUrl), { pathname: `/${name}` }).toString();
  let admin: Client;
  let sql: Client;
  let service: TestService;

  beforeAll(async () => {
    admin = new Client({ connectionString: serverUrl.toString() });
    await admin.connect();
    await admin.query(`create database ${name}`);
    // Migrated here, quietly (the service would apply them at start and print each one).
    const orm = await MikroORM.init(ormOptions(databaseUrl, 1, pino({ level: 'silent' })));
    await orm.getMigrator().up();
    await orm.close(true);
    // A long key cache: only the revocation NOTIFY can make this replica forget a key.
    service = await startTestService({ DATABASE_URL: databaseUrl, AUTH_CACHE_TTL_MS: '60000', WEBHOOK_WORKER_ENABLED: 'false' });
    sql = new Client({ connectionString: databaseUrl });
    await sql.connect();
  }, 60_000);
  afterAll(async () => {
    await sql?.end();
    await service?.close();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  });

  /** Backends of this database whose last statement was a LISTEN (the pool's never are). */
  const listenBackends = async () => (await sql.query<{ pid: number; query: string }>(
    `select pid, query from pg_stat_activity where datname = current_database() and query ilike 'listen %' and pid <> pg_backend_pid()`)).rows;

  /** A payment created now reaches a subscriber of its tenant (through the payment events channel). */
  async function paymentEventsHeard(): Promise<void> {
    const { apiKey } = await service.newTenant();
    const live = subscribe(service.baseUrl, apiKey, 'subscription { paymentUpdated { id status } }');
    try {
      await subscribed(service, 1);
      const created = await service.call('POST', '/v1/payments/moneyout', { apiKey, body: moneyOutBody(), headers: { 'idempotency-key': randomUUID() } });
      expect(created.status).toBe(201);
      await live.until((r) => r.some((x) => x.data.paymentUpdated.id === created.body.id));
    } finally {
      await live.dispose();
    }
  }

  /**
   * A key revoked by another replica (its row updated and the channel notified, as the revocation
   * does) closes the key's sockets here and is refused at once, though it was cached.
   */
  async function revocationsHeard(): Promise<void> {
    const { apiKey } = await service.newTenant('0');
    const me = await gql(service.baseUrl, '{ me { keyId } }', {}, apiKey);
    const keyId = me.body.data.me.keyId as string;
    expect((await service.call('GET', '/v1/balances', { apiKey })).status).toBe(200);
    const socket = initSocket(service.baseUrl, { authorization: apiKey });
    expect(await socket.outcome).toBe('acked');
    await sql.query('update api_keys set revoked_at = now() where id = $1', [keyId]);
    await sql.query('select pg_notify($1, $2)', ['api_key_revoked', keyId]);
    expect((await socket.closed).code).toBe(4401);
    expect((await service.call('GET', '/v1/balances', { apiKey })).status).toBe(401);
  }

  it('holds exactly one LISTEN connection, on which payment events and key revocations are both heard', async () => {
    expect(await listenBackends()).toHaveLength(1);
    await paymentEventsHeard();
    await revocationsHeard();
    expect(await listenBackends()).toHaveLength(1);
  });

  it('after the connection drops, reconnects once and every registered handler hears again', async () => {
    const [before] = await listenBackends();
    await sql.query('select pg_terminate_backend($1)', [before!.pid]);
    // The listener reconnects with back-off; wait for its new backend to have LISTENed.
    const after = await eventually(async () => {
      const rows = await listenBackends();
      return rows.length > 0 && rows.every((r) => r.pid !== before!.pid) ? rows : undefined;
    });
    expect(after).toHaveLength(1);
    await paymentEventsHeard();
    await revocationsHeard();
    expect(await listenBackends()).toHaveLength(1);
  });
});
