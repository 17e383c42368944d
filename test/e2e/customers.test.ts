import { createHmac } from 'node:crypto';
import { eventually, startTestService, type TestService } from '../support/test-service';
import { startReceiver, type Receiver } from '../support/receiver';
import { SandboxKycProvider } from '../../src/adapters/providers/sandbox-kyc';
import { Customer, toCustomerView, type KycProvider } from '../../src/core/customers/customer';
import { processDueKyc, type KycWorkerDeps } from '../../src/core/customers/manage-customers';
import type { OutboxEvent } from '../../src/core/events/outbox-event';
import type { TransactionContext } from '../../src/core/shared/unit-of-work';

describe('customers and KYC', () => {
  let service: TestService;
  let hook: Receiver;
  beforeAll(async () => {
    service = await startTestService({ KYC_SANDBOX_DELAY_MS: '50' });
    hook = await startReceiver();
  });
  afterAll(async () => {
    await service.close();
    await hook.close();
  });

  const body = (o: Record<string, unknown> = {}) => ({
    externalId: `user-${Math.random()}`, firstName: 'Amina', lastName: 'Odhiambo', country: 'KE', dateOfBirth: '1990-04-12',
    idType: 'NATIONAL_ID', idNumber: '12345678', ...o,
  });
  const decided = (apiKey: string, id: string, status: string, on = service) => eventually(async () => {
    const c = await on.call('GET', `/v1/customers/${id}`, { apiKey });
    return c.body.kycStatus === status ? c.body : undefined;
  });
  const deliveredFor = (id: string) => eventually(async () => hook.received.find((r) => JSON.parse(r.body).data.id === id));

  it('creates a pending customer, approves it, and delivers one signed customer.kyc.updated carrying the customer as GET returns it', async () => {
    const { apiKey } = await service.newTenant('0');
    const { body: registration } = await service.call('POST', '/v1/webhooks/register', { apiKey, body: { url: hook.url, events: ['customer.kyc.updated'] } });
    const created = await service.call('POST', '/v1/customers', { apiKey, body: body() });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^cus_[0-9A-Z]{26}$/), externalId: expect.any(String), firstName: 'Amina', lastName: 'Odhiambo',
      country: 'KE', dateOfBirth: '1990-04-12', idType: 'NATIONAL_ID', idNumberLast4: '5678', kycStatus: 'pending', kycReason: null,
      createdAt: expect.any(String), updatedAt: created.body.createdAt,
    });
    // The full document number is stored for the provider but never shown again.
    expect(created.text).not.toContain('12345678');
    const approved = await decided(apiKey, created.body.id, 'approved');
    expect(approved.updatedAt >= created.body.updatedAt).toBe(true);
    const delivered = await deliveredFor(created.body.id);
    const event = JSON.parse(delivered.body);
    expect(event).toMatchObject({ type: 'customer.kyc.updated', timestamp: approved.updatedAt });
    expect(event.data).toEqual(approved);
    const t = String(delivered.headers['webhook-timestamp']);
    expect(delivered.headers['service-signature']).toBe(`t=${t},v1=${createHmac('sha256', registration.secret).update(`${t}.${delivered.body}`).digest('hex')}`);
    // The receiver answers before the worker records the outcome, so wait for the log to say delivered.
    const log = await eventually(async () => {
      const res = await service.call('GET', `/v1/webhooks/events?entityId=${created.body.id}`, { apiKey });
      return res.body[0]?.status === 'delivered' ? res.body : undefined;
    });
    expect(log.map((e: { eventType: string }) => e.eventType)).toEqual(['customer.kyc.updated']);
  });

  it('rejects an id number ending 0000, with a reason, and sends the event', async () => {
    const { apiKey } = await service.newTenant('0');
    await service.call('POST', '/v1/webhooks/register', { apiKey, body: { url: hook.url } });
    const created = await service.call('POST', '/v1/customers', { apiKey, body: body({ idNumber: 'AB120000' }) });
    const rejected = await decided(apiKey, created.body.id, 'rejected');
    expect(rejected.kycReason).toEqual(expect.any(String));
    expect(JSON.parse((await deliveredFor(created.body.id)).body)).toMatchObject({ type: 'customer.kyc.updated', data: { kycStatus: 'rejected' } });
  });

  it('keeps pending KYC in PostgreSQL, so a worker of any replica decides it', async () => {
    const idle = await startTestService({ WORKER_ENABLED: 'false' });
    try {
      const { apiKey } = await idle.newTenant('0');
      const created = await idle.call('POST', '/v1/customers', { apiKey, body: body() });
      expect(created.body.kycStatus).toBe('pending');
      // `idle` runs no KYC worker; `service` does, on the same database, as another replica would.
      await decided(apiKey, created.body.id, 'approved', idle);
      const [row] = await idle.database.orm.em.getConnection().execute('select next_check_at from customers where id = ?', [created.body.id]);
      expect(row?.next_check_at).toBeNull();
    } finally {
      await idle.close();
    }
  });

  it('validates every field in shape A', async () => {
    const { apiKey } = await service.newTenant('0');
    const today = new Date();
    const ymd = (d: Date) => d.toISOString().slice(0, 10);
    const yearsAgo = (years: number, days = 0) => ymd(new Date(Date.UTC(today.getUTCFullYear() - years, today.getUTCMonth(), today.getUTCDate() + days)));
    for (const bad of [
      body({ dateOfBirth: '1990-02-30' }), body({ dateOfBirth: '1990-4-12' }), body({ dateOfBirth: ymd(today) }), body({ dateOfBirth: yearsAgo(18, 1) }),
      body({ dateOfBirth: '1899-12-31' }), body({ dateOfBirth: '2999-01-01' }), body({ country: 'KEN' }), body({ country: 'ZZ' }), body({ country: 'ke' }),
      body({ idType: 'LIBRARY_CARD' }), body({ idNumber: '12 34' }), body({ idNumber: '123' }), body({ firstName: ' ' }), body({ externalId: '' }),
      body({ extra: true }), { firstName: 'Amina' },
    ]) {
      const res = await service.call('POST', '/v1/customers', { apiKey, body: bad });
      expect({ status: res.status, code: res.body.code, bad }).toEqual({ status: 400, code: 'validation_error', bad });
    }
    // Eighteen today is old enough (UTC dates).
    expect((await service.call('POST', '/v1/customers', { apiKey, body: body({ dateOfBirth: yearsAgo(18) }) })).status).toBe(201);
    expect((await service.call('POST', '/v1/customers', { apiKey, body: body({ country: 'XK', idType: 'PASSPORT' }) })).status).toBe(201);
  });

  it('refuses a duplicate externalId per tenant only, pages newest first, and isolates tenants', async () => {
    const { apiKey } = await service.newTenant('0');
    const other = await service.newTenant('0');
    const first = body();
    const one = await service.call('POST', '/v1/customers', { apiKey, body: first });
    expect(one.status).toBe(201);
    const dup = await service.call('POST', '/v1/customers', { apiKey, body: { ...first, idNumber: '99999999' } });
    expect(dup.body).toEqual({ statusCode: 409, code: 'duplicate_customer', message: expect.any(String), details: { requestId: expect.any(String) } });
    expect((await service.call('POST', '/v1/customers', { apiKey: other.apiKey, body: first })).status).toBe(201);
    const two = await service.call('POST', '/v1/customers', { apiKey, body: body() });
    const three = await service.call('POST', '/v1/customers', { apiKey, body: body() });
    const page1 = await service.call('GET', '/v1/customers?limit=2', { apiKey });
    expect(page1.body.map((c: { id: string }) => c.id)).toEqual([three.body.id, two.body.id]);
    const link = page1.headers.get('link')!;
    expect(link).toMatch(/^<\/v1\/customers\?limit=2&cursor=[^>]+>; rel="next"$/);
    const page2 = await service.call('GET', /^<([^>]+)>/.exec(link)![1]!, { apiKey });
    expect(page2.body.map((c: { id: string }) => c.id)).toEqual([one.body.id]);
    expect(page2.headers.get('link')).toBeNull();
    expect((await service.call('GET', '/v1/customers', { apiKey })).body).toHaveLength(3);
    expect((await service.call('GET', '/v1/customers?cursor=forged', { apiKey })).body.code).toBe('validation_error');
    expect((await service.call('GET', '/v1/customers?limit=101', { apiKey })).status).toBe(400);

    const foreign = await service.call('GET', `/v1/customers/${one.body.id}`, { apiKey: other.apiKey });
    expect(foreign.body).toEqual({ statusCode: 404, code: 'not_found', message: expect.any(String), details: { requestId: expect.any(String) } });
    expect((await service.call('GET', '/v1/customers/cus_01ARZ3NDEKTSV4RRFFQ69G5FAV', { apiKey })).status).toBe(404);
    expect((await service.call('GET', '/v1/customers', { apiKey: other.apiKey })).body.map((c: { externalId: string }) => c.externalId)).toEqual([first.externalId]);
    // Another tenant's cursor reveals nothing either: it only positions within the caller's own list.
    const foreignPage = await service.call('GET', /^<([^>]+)>/.exec(link)![1]!, { apiKey: other.apiKey });
    expect(foreignPage.body.filter((c: { id: string }) => [one.body.id, two.body.id, three.body.id].includes(c.id))).toEqual([]);
  });

  it('refuses admin keys and missing keys', async () => {
    const admin = await service.newAdminKey();
    expect((await service.call('GET', '/v1/customers', { apiKey: admin })).status).toBe(403);
    expect((await service.call('POST', '/v1/customers', { body: body() })).status).toBe(401);
  });
});

describe('KYC worker pass and sandbox provider (core, with in-memory ports)', () => {
  const t0 = new Date('2026-01-01T00:00:00Z');
  const customer = (idNumber = '12345678', createdAt = t0) => new Customer({
    id: 'cus_01ARZ3NDEKTSV4RRFFQ69G5FAV', tenantId: 'ten_1', externalId: 'u1', firstName: 'A', lastName: 'B', country: 'KE',
    dateOfBirth: '1990-01-01', idType: 'PASSPORT', idNumber, kycStatus: 'pending', kycReason: null, nextCheckAt: createdAt, createdAt, updatedAt: createdAt,
  });
  const harness = (kyc: KycProvider, claimed: Customer[], stillPending = true) => {
    const log: string[] = [];
    const committed: OutboxEvent[] = [];
    const deps: KycWorkerDeps = {
      clock: { now: () => t0 },
      ids: { next: () => 'cus_x', uuid: () => 'evt-1' },
      customers: {
        insert: async () => 'inserted', findForTenant: async () => undefined, list: async () => ({ entries: [], cursors: [] }),
        claimDue: async (_now, _limit, leaseUntil) => {
          log.push(`claim until ${leaseUntil.toISOString()}`);
          return claimed;
        },
        reschedule: async (id, at) => void log.push(`reschedule ${id} ${at.toISOString()}`),
      },
      uow: {
        transact: async (work) => {
          const appended: OutboxEvent[] = [];
          const tx = {
            customers: {
              decide: async (id: string, status: 'approved' | 'rejected', reason: string | null, at: Date) =>
                stillPending ? new Customer({ ...claimed[0]!, id, kycStatus: status, kycReason: reason, nextCheckAt: null, updatedAt: at }) : undefined,
            },
            outbox: { append: async (e: OutboxEvent) => void appended.push(e) },
          } as unknown as TransactionContext;
          const result = await work(tx);
          if (result.ok) committed.push(...appended);
          return result;
        },
      },
      routing: {
        kycProviderFor: () => ({ kind: 'provider', provider: kyc }),
        payoutProvidersFor: () => ({ kind: 'unavailable', reason: 'unused' }),
        payoutProviderNamed: () => undefined,
      },
      environments: { environmentOf: async () => 'sandbox' },
      leaseMs: 30_000,
      onDecided: (status) => void log.push(`decided ${status}`),
      onProviderError: (id) => void log.push(`provider error ${id}`),
    };
    return { deps, log, committed };
  };

  it('leases what it claims and reschedules while the provider is still checking', async () => {
    const h = harness({ check: async () => ({ kind: 'pending', afterMs: 700 }) }, [customer()]);
    expect(await processDueKyc(h.deps, 10)).toBe(1);
    expect(h.log).toEqual(['claim until 2026-01-01T00:00:30.000Z', 'reschedule cus_01ARZ3NDEKTSV4RRFFQ69G5FAV 2026-01-01T00:00:00.700Z']);
    expect(h.committed).toEqual([]);
  });

  it('asks a failing provider again after 5 s and reports the failure', async () => {
    const h = harness({ check: async () => { throw new Error('down'); } }, [customer()]);
    await processDueKyc(h.deps, 10);
    expect(h.log.slice(1)).toEqual(['provider error cus_01ARZ3NDEKTSV4RRFFQ69G5FAV', 'reschedule cus_01ARZ3NDEKTSV4RRFFQ69G5FAV 2026-01-01T00:00:05.000Z']);
  });

  it('commits a decision with one customer.kyc.updated event carrying the REST view', async () => {
    const h = harness({ check: async () => ({ kind: 'rejected', reason: 'no match' }) }, [customer()]);
    await processDueKyc(h.deps, 10);
    expect(h.log.slice(1)).toEqual(['decided rejected']);
    expect(h.committed).toEqual([{
      id: 'evt-1', tenantId: 'ten_1', type: 'customer.kyc.updated', entityId: 'cus_01ARZ3NDEKTSV4RRFFQ69G5FAV', createdAt: t0,
      payload: toCustomerView(new Customer({ ...customer(), kycStatus: 'rejected', kycReason: 'no match', nextCheckAt: null })),
    }]);
    expect(h.committed[0]!.payload).toMatchObject({ idNumberLast4: '5678', kycStatus: 'rejected' });
    expect(JSON.stringify(h.committed[0]!.payload)).not.toContain('12345678');
  });

  it('emits nothing when another worker decided first', async () => {
    const h = harness({ check: async () => ({ kind: 'approved' }) }, [customer()], false);
    await processDueKyc(h.deps, 10);
    expect(h.log.slice(1)).toEqual([]);
    expect(h.committed).toEqual([]);
  });

  it('sandbox: pending for the rest of the delay from creation, then approves, or rejects ids ending 0000', async () => {
    const at = (ms: number) => ({ now: () => new Date(t0.getTime() + ms) });
    expect(await new SandboxKycProvider(at(400), 1000).check(customer())).toEqual({ kind: 'pending', afterMs: 600 });
    expect(await new SandboxKycProvider(at(1000), 1000).check(customer())).toEqual({ kind: 'approved' });
    expect(await new SandboxKycProvider(at(1000), 1000).check(customer('X0000'))).toEqual({ kind: 'rejected', reason: expect.any(String) });
    expect(await new SandboxKycProvider(at(0), 0).check(customer('00001'))).toEqual({ kind: 'approved' });
  });
});
