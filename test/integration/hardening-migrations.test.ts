import { MikroORM } from '@mikro-orm/postgresql';
import { randomBytes, randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { ormOptions } from '../../src/adapters/persistence/mikro-orm.config';
import { sha256Hasher, ulidGenerator } from '../../src/adapters/providers/system';
import { generateApiKey, storedKey } from '../../src/app/api-keys';
import { gql } from '../support/graphql-client';
import { moneyOutBody, startTestService, type TestService } from '../support/test-service';
import { bscTxHash, solanaTxHash } from '../support/tx-hashes';

/** The last migration of the schema these data migrations start from. */
const BEFORE = 'Migration20261122104046';

/**
 * The migrations that close the deposit and admin-key holes, run on a database that already holds
 * what the holes let in: duplicate deposits and tenant-bound admin keys. They report, revoke and
 * delete nothing; afterwards the service refuses such a key everywhere, even one that got past
 * the database's check.
 */
describe('hardening migrations on a database seeded with duplicates', () => {
  const ids = ulidGenerator();
  const name = `payout_mig_${process.pid}_${randomBytes(4).toString('hex')}`;
  const serverUrl = new URL(process.env.TEST_DATABASE_URL!);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  let orm: MikroORM;
  let service: TestService | undefined;

  const server = async <T>(work: (c: Client) => Promise<T>): Promise<T> => {
    const client = new Client({ connectionString: serverUrl.toString() });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };
  beforeAll(async () => {
    await server((c) => c.query(`create database ${name}`));
    orm = await MikroORM.init(ormOptions(url.toString(), 2));
    await orm.getMigrator().up({ to: BEFORE });
  });
  afterAll(async () => {
    await service?.close();
    await orm.close(true);
    await server((c) => c.query(`drop database if exists ${name} with (force)`));
  });

  const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => orm.em.fork().getConnection().execute(text, params) as Promise<T[]>;
  const tenant = async (environment: 'sandbox' | 'live') => {
    const id = ids.next('ten');
    await sql('insert into tenants (id, name, environment, created_at) values (?, ?, ?, now())', [id, `Seeded ${id}`, environment]);
    return id;
  };
  let at = Date.parse('2026-01-01T00:00:00Z');
  const credit = async (tenantId: string, externalRef: string) => {
    const id = ids.next('ldg');
    at += 1000;
    await sql(
      `insert into ledger_transactions (id, tenant_id, currency, kind, amount, from_kind, to_kind, external_ref, created_at)
       values (?, ?, 'USDC', 'deposit', 100, 'funding', 'available', ?, ?)`, [id, tenantId, externalRef, new Date(at)]);
    return id;
  };

  it('backfills the deposit register (first credit wins), reports every other credit, revokes tenant-bound admin keys', async () => {
    const [a, b, c] = [await tenant('sandbox'), await tenant('sandbox'), await tenant('live')];
    const signature = solanaTxHash();
    const bsc = bscTxHash();
    const firstSolana = await credit(c, `SOLANA:${signature}`);
    const sameToB = await credit(b, `SOLANA:${signature}`);
    const firstBsc = await credit(a, `BSC:${bsc.toUpperCase().replace('0X', '0x')}`);
    const lowerCopy = await credit(b, `BSC:${bsc}`);
    const paddedCopy = await credit(c, `BSC: ${bsc}`);
    const fake = await credit(a, 'SOLANA:sandbox-initial-funding-USDC');
    const adminKey = generateApiKey('sandbox');
    const bound = storedKey(adminKey, 'admin', b, 'tenant-bound admin', { ids, hasher: sha256Hasher, now: new Date() });
    await sql('insert into api_keys (id, tenant_id, scope, lookup, secret_hash, label, created_at) values (?, ?, ?, ?, ?, ?, now())',
      [bound.id, bound.tenantId, bound.scope, bound.lookup, bound.secretHash, bound.label]);
    const ledgerBefore = await sql('select id from ledger_transactions order by id');

    await orm.getMigrator().up();

    expect(await sql('select tenant_id, blockchain, tx_hash, ledger_transaction_id from deposits order by created_at')).toEqual([
      { tenant_id: c, blockchain: 'SOLANA', tx_hash: signature, ledger_transaction_id: firstSolana },
      { tenant_id: a, blockchain: 'BSC', tx_hash: bsc, ledger_transaction_id: firstBsc },
    ]);
    expect(await sql('select ledger_transaction_id, tenant_id, problem, first_credit_ledger_transaction_id from deposit_anomalies order by created_at')).toEqual([
      { ledger_transaction_id: sameToB, tenant_id: b, problem: 'duplicate', first_credit_ledger_transaction_id: firstSolana },
      { ledger_transaction_id: lowerCopy, tenant_id: b, problem: 'duplicate', first_credit_ledger_transaction_id: firstBsc },
      { ledger_transaction_id: paddedCopy, tenant_id: c, problem: 'duplicate', first_credit_ledger_transaction_id: firstBsc },
      { ledger_transaction_id: fake, tenant_id: a, problem: 'malformed_hash', first_credit_ledger_transaction_id: null },
    ]);
    expect(await sql('select id from ledger_transactions order by id')).toEqual(ledgerBefore);
    const [revoked] = await sql('select id, tenant_id, revoked_at from tenant_bound_admin_keys');
    expect(revoked).toMatchObject({ id: bound.id, tenant_id: b, revoked_at: expect.anything() });

    // The service on the migrated database: the revoked key opens nothing, the duplicate cannot be credited again.
    service = await startTestService({ DATABASE_URL: url.toString() });
    const platformAdmin = await service.newAdminKey();
    const again = await service.call('POST', `/v1/admin/tenants/${a}/deposits`, {
      apiKey: platformAdmin, body: { currency: 'USDC', amount: '1', blockchain: 'SOLANA', txHash: signature },
    });
    expect(again.body.code).toBe('duplicate_deposit');
    await expectPowerless(service, adminKey, b);
  }, 60_000);

  it('a tenant-bound admin key that got past the check still authenticates for nothing, on REST and GraphQL', async () => {
    const live = service!;
    const { tenantId } = await live.newTenant('10');
    // Simulates a row the check never saw (restored from an old dump, or written with the check dropped).
    await sql('alter table api_keys drop constraint api_keys_scope_tenant_check');
    const adminKey = generateApiKey('sandbox');
    const bound = storedKey(adminKey, 'admin', tenantId, 'bypassed the check', { ids, hasher: sha256Hasher, now: new Date() });
    await sql('insert into api_keys (id, tenant_id, scope, lookup, secret_hash, label, created_at) values (?, ?, ?, ?, ?, ?, now())',
      [bound.id, bound.tenantId, bound.scope, bound.lookup, bound.secretHash, bound.label]);
    await expectPowerless(live, adminKey, tenantId);
  });

  /** What a tenant-bound admin key could do before the hardening of key scopes, each now 401: admin reads and credits, and acting as the tenant's issuer key. */
  async function expectPowerless(live: TestService, apiKey: string, tenantId: string): Promise<void> {
    const other = await live.newTenant();
    const payment = await live.call('POST', '/v1/payments/moneyout', { apiKey: other.apiKey, body: moneyOutBody(), headers: { 'idempotency-key': randomUUID() } });
    expect(payment.status).toBe(201);
    const attempts = [
      await live.call('GET', `/v1/admin/payments/${payment.body.id}`, { apiKey }),
      await live.call('GET', '/v1/admin/tenants', { apiKey }),
      await live.call('POST', `/v1/admin/tenants/${tenantId}/deposits`, { apiKey, body: { currency: 'USDC', amount: '5', blockchain: 'BSC', txHash: bscTxHash() } }),
      await live.call('GET', '/v1/balances', { apiKey }),
      await live.call('POST', '/v1/payments/moneyout', { apiKey, body: moneyOutBody(), headers: { 'idempotency-key': randomUUID() } }),
    ];
    expect(attempts.map((r) => [r.status, r.body.code])).toEqual(Array(attempts.length).fill([401, 'unauthorized']));
    const graphql = await gql(live.baseUrl, '{ me { tenantId scope } balances { currency available } }', {}, apiKey);
    expect(graphql.status).toBe(401);
    expect(graphql.body.errors[0].extensions.code).toBe('unauthorized');
    expect(await live.database.orm.em.fork().getConnection().execute('select count(*)::int as n from deposits where tenant_id = ?', [tenantId]))
      .toEqual([{ n: 0 }]);
  }
});
