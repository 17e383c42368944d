import { randomInt, randomUUID } from 'node:crypto';
import { canonicalJson } from '../../src/core/idempotency/idempotency';
import { PersonalDataBox } from '../../src/adapters/providers/personal-data-box';
import { MikroUnitOfWork } from '../../src/adapters/persistence/unit-of-work';
import { ok } from '../../src/core/shared/result';
import { eventually, moneyOutBody, startTestService, type TestService } from '../support/test-service';

/** Personal data at rest: id numbers, account numbers and names are sealed; the API answers do not change. */
describe('personal data at rest', () => {
  let service: TestService;
  let apiKey: string;
  beforeAll(async () => {
    // No workers: answers stay comparable (nothing moves a payment or decides a customer meanwhile).
    service = await startTestService({ WORKER_ENABLED: 'false', WEBHOOK_WORKER_ENABLED: 'false' });
    ({ apiKey } = await service.newTenant());
  });
  afterAll(() => service.close());

  const sql = <T = Record<string, unknown>>(query: string, params: unknown[] = []) =>
    service.database.orm.em.getConnection().execute<T[]>(query, params);
  const digits = (n: number) => Array.from({ length: n }, () => randomInt(10)).join('');
  const customerBody = (idNumber: string) => ({
    externalId: randomUUID(), firstName: 'Amina', lastName: 'Odhiambo', country: 'KE', dateOfBirth: '1990-04-12', idType: 'NATIONAL_ID', idNumber,
  });

  it('keeps no clear id number in the database, and answers as before', async () => {
    const idNumber = `ZQ${digits(8)}`;
    const created = await service.call('POST', '/v1/customers', { apiKey, body: customerBody(idNumber) });
    expect(created.status).toBe(201);
    expect(created.body.idNumberLast4).toBe(idNumber.slice(-4));
    expect(await holding(sql, idNumber)).toEqual({});
    expect(await holding(sql, idNumber.slice(2))).toEqual({});
    const [row] = await sql<{ id_number: string | null; id_number_sealed: string; id_number_hash: string }>(
      'select id_number, id_number_sealed, id_number_hash from customers where id = ?', [created.body.id]);
    expect(row).toEqual({ id_number: null, id_number_sealed: expect.stringMatching(/^pd1\./), id_number_hash: expect.stringMatching(/^ph1\.[\w-]{43}$/) });
    const read = await service.call('GET', `/v1/customers/${created.body.id}`, { apiKey });
    expect(read.text).toBe(created.text);
  });

  it('writes the sealed id number once: a KYC decision leaves it as it was', async () => {
    const created = await service.call('POST', '/v1/customers', { apiKey, body: customerBody(`ZQ${digits(8)}`) });
    const sealed = () => sql<{ id_number_sealed: string; kyc_status: string }>('select id_number_sealed, kyc_status from customers where id = ?', [created.body.id]);
    const [before] = await sealed();
    // The decision as the KYC worker makes it: the real unit of work, whose transaction flushes the manager at commit.
    const uow = new MikroUnitOfWork(service.database.orm.em, { next: () => 'unused', uuid: () => randomUUID() }, { now: () => new Date() });
    const decided = await uow.transact(async (tx) => ok(await tx.customers.decide(created.body.id, 'approved', null, new Date())));
    expect(decided).toMatchObject({ ok: true, value: { id: created.body.id, kycStatus: 'approved' } });
    expect(await sealed()).toEqual([{ id_number_sealed: before!.id_number_sealed, kyc_status: 'approved' }]);
  });

  it('keeps no clear account number or name in the database, and answers as before', async () => {
    const accountNumber = `2547${digits(8)}`;
    const accountName = `Jane ${randomUUID()}`;
    const created = await service.call('POST', '/v1/payments/moneyout', { apiKey, body: moneyOutBody({ accountNumber, accountName }), headers: { 'idempotency-key': randomUUID() } });
    expect(created.status).toBe(201);
    expect(await holding(sql, accountNumber)).toEqual({});
    expect(await holding(sql, accountName)).toEqual({});
    const [row] = await sql('select account_number, account_name, account_number_sealed, account_name_sealed from payments where id = ?', [created.body.id]);
    expect(row).toEqual({ account_number: null, account_name: null, account_number_sealed: expect.stringMatching(/^pd1\./), account_name_sealed: expect.stringMatching(/^pd1\./) });
    const read = await service.call('GET', `/v1/payments/${created.body.id}`, { apiKey });
    expect(read.text).toBe(created.text);
  });

  it('still detects duplicates through keyed hashes: equal documents hash alike, a replay matches its fingerprint', async () => {
    const number = digits(8);
    const ids: string[] = [];
    for (const idNumber of [`AB-${number}`, `ab${number}`, `AB${number}9`]) {
      ids.push((await service.call('POST', '/v1/customers', { apiKey, body: customerBody(idNumber) })).body.id);
    }
    const hashes = await sql<{ id: string; id_number_hash: string }>('select id, id_number_hash from customers where id in (?, ?, ?)', ids);
    const hashOf = (id: string) => hashes.find((h) => h.id === id)!.id_number_hash;
    expect(hashOf(ids[0]!)).toBe(hashOf(ids[1]!));
    expect(hashOf(ids[2]!)).not.toBe(hashOf(ids[0]!));

    // The legacy payout deduplicates by reference and compares the request's keyed fingerprint.
    const legacy = { amount: 1500, destination: 'MoMo', accountName: 'Jane Wanjiku', accountNumber: `2547${digits(8)}`, reference: `legacy-${randomUUID()}`, currency: 'KES', country: 'KE', code: 'MPESA' };
    const first = await service.call('POST', '/momo/payout', { apiKey, body: legacy });
    expect(first.status).toBe(200);
    const again = await service.call('POST', '/momo/payout', { apiKey, body: legacy });
    expect(again.body).toEqual(first.body);
    const other = await service.call('POST', '/momo/payout', { apiKey, body: { ...legacy, accountNumber: `2547${digits(8)}` } });
    expect(other.status).toBe(409);
    expect(await holding(sql, legacy.accountNumber)).toEqual({});
  });
});

describe('personal data written in clear before sealing', () => {
  /**
   * Rows as the version before sealing wrote them: made through the API, then turned back into clear
   * columns without sealed ones, and the request's canonical JSON as the idempotency fingerprint.
   */
  async function writeClearRows(before: TestService) {
    const sql = <T = Record<string, unknown>>(query: string, params: unknown[] = []) =>
      before.database.orm.em.getConnection().execute<T[]>(query, params);
    const { apiKey } = await before.newTenant();
    const idNumber = `OLD${randomInt(1e6, 1e7)}`;
    const customer = await before.call('POST', '/v1/customers', {
      apiKey, body: { externalId: randomUUID(), firstName: 'Amina', lastName: 'Odhiambo', country: 'KE', dateOfBirth: '1990-04-12', idType: 'PASSPORT', idNumber },
    });
    // An account number ending 1111 makes the sandbox provider fail the payout: only a provider given it in clear can tell.
    const body = moneyOutBody({ accountNumber: `2547${randomInt(1e3, 1e4)}1111`, accountName: `Old ${randomUUID()}` });
    const key = randomUUID();
    const payment = await before.call('POST', '/v1/payments/moneyout', { apiKey, body, headers: { 'idempotency-key': key } });
    expect(payment.status).toBe(201);
    const canonical = canonicalJson({ operation: 'moneyout', ...body, fiatAmount: String(body.fiatAmount) });
    const box = new PersonalDataBox(Buffer.from(before.config.WEBHOOK_SECRET_KEY!, 'base64'));
    const [stored] = await sql<{ fingerprint: string }>('select fingerprint from idempotency_keys where key = ?', [key]);
    expect(stored!.fingerprint).toBe(box.keyedHash('idempotency-fingerprint', canonical));
    await sql('update customers set id_number = ?, id_number_sealed = null, id_number_hash = null where id = ?', [idNumber, customer.body.id]);
    await sql('update payments set account_number = ?, account_name = ?, account_number_sealed = null, account_name_sealed = null where id = ?',
      [body.accountNumber, body.accountName, payment.body.id]);
    await sql('update idempotency_keys set fingerprint = ? where key = ?', [canonical, key]);
    expect(Object.keys(await holding(sql, idNumber))).toEqual(['customers']);
    expect(Object.keys(await holding(sql, body.accountNumber as string)).sort()).toEqual(['idempotency_keys', 'payments']);
    return { apiKey, idNumber, customerId: customer.body.id as string, paymentId: payment.body.id as string, key, body };
  }

  it('is sealed by the backfill at start and still reads, pays out and replays', async () => {
    const before = await startTestService({ WORKER_ENABLED: 'false', WEBHOOK_WORKER_ENABLED: 'false' });
    const old = await writeClearRows(before).finally(() => before.close());

    const after = await startTestService();
    const sql = (q: string, p: unknown[]) => after.database.orm.em.getConnection().execute(q, p);
    try {
      for (const needle of [old.idNumber, old.body.accountNumber as string, old.body.accountName as string]) {
        expect(await holding(sql, needle)).toEqual({});
      }
      const read = await after.call('GET', `/v1/customers/${old.customerId}`, { apiKey: old.apiKey });
      expect(read.body).toMatchObject({ id: old.customerId, idNumberLast4: old.idNumber.slice(-4) });
      const replay = await after.call('POST', '/v1/payments/moneyout', { apiKey: old.apiKey, body: old.body, headers: { 'idempotency-key': old.key } });
      expect(replay.status).toBe(201);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body.id).toBe(old.paymentId);
      const failed = await eventually(async () => {
        const p = await after.call('GET', `/v1/payments/${old.paymentId}`, { apiKey: old.apiKey });
        return p.body.status === 'failed' ? p.body : undefined;
      });
      expect(failed.failureReason).toMatch(/recipient institution/);
      // A second start finds nothing left to seal and changes nothing.
      const [sealedBefore] = await sql('select id_number_sealed from customers where id = ?', [old.customerId]);
      const again = await startTestService({ WORKER_ENABLED: 'false', WEBHOOK_WORKER_ENABLED: 'false' });
      await again.close();
      expect(await sql('select id_number_sealed from customers where id = ?', [old.customerId])).toEqual([sealedBefore]);
    } finally {
      await after.close();
    }
  });
});

/** Tables whose rows' text contains `needle`, with how many rows, through `sql`. */
async function holding(sql: (q: string, p: unknown[]) => Promise<any[]>, needle: string): Promise<Record<string, number>> {
  const tables: { tablename: string }[] = await sql(`select tablename from pg_tables where schemaname = current_schema() and tablename <> 'mikro_orm_migrations'`, []);
  const hits: Record<string, number> = {};
  for (const { tablename } of tables) {
    const [row] = await sql(`select count(*)::int as n from "${tablename}" t where t::text like ?`, [`%${needle}%`]);
    if (row.n > 0) hits[tablename] = row.n;
  }
  return hits;
}
