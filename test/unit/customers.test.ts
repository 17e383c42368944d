import { isCountryCode } from '../../src/core/customers/countries';
import type { KycOutcome, KycProvider } from '../../src/core/customers/customer';
import { createCustomer, getCustomer, listCustomers, processDueKyc, type CreateCustomerCommand, type KycWorkerDeps } from '../../src/core/customers/manage-customers';
import { UNROUTED_RECHECK_MS } from '../../src/core/routing/provider-routing';
import { err, ok } from '../../src/core/shared/result';
import { FakeRouting, FixedClock, MemoryStore, ScriptedProvider, SequentialIds } from '../support/fakes';
import { MemoryCustomers } from '../support/memory-customers';

const command = (o: Partial<CreateCustomerCommand> = {}): CreateCustomerCommand => ({
  externalId: 'u-1', firstName: 'Amina', lastName: 'Otieno', country: 'KE', dateOfBirth: '1990-05-17', idType: 'NATIONAL_ID', idNumber: 'AB123456', ...o,
});

/** Customers and the KYC worker (docs/decisions.md § Customers and KYC) on in-memory ports. */
describe('customers on fakes', () => {
  let clock: FixedClock;
  let store: MemoryStore;
  let customers: MemoryCustomers;
  let answers: KycOutcome[];
  let routing: FakeRouting;
  let deps: KycWorkerDeps;
  let events: string[];
  beforeEach(() => {
    clock = new FixedClock('2026-06-15T12:00:00.000Z');
    const ids = new SequentialIds();
    store = new MemoryStore(clock, ids);
    customers = new MemoryCustomers(store);
    answers = [];
    events = [];
    const kyc: KycProvider = {
      check: async (c) => {
        const next = answers.shift();
        if (!next) throw new Error(`provider down for ${c.id}`);
        return next;
      },
    };
    routing = new FakeRouting(new ScriptedProvider(), kyc).add('ten_A').add('ten_L', 'live');
    deps = {
      customers, clock, ids, routing, environments: routing, uow: store, leaseMs: 30_000,
      onDecided: (s) => events.push(`decided ${s}`), onProviderError: (id, e) => events.push(`error ${id} ${(e as Error).message}`),
      onUnrouted: (id, reason) => events.push(`unrouted ${id} ${reason}`),
    };
  });

  it('creates a pending customer, due for a check now, shown with the last four of its id number', async () => {
    const r = await createCustomer(deps, 'ten_A', command({ externalId: ' u-1 ' }));
    const id = 'cus_00000000000000000000000001';
    expect(r).toEqual(ok({
      id, externalId: 'u-1', firstName: 'Amina', lastName: 'Otieno', country: 'KE', dateOfBirth: '1990-05-17', idType: 'NATIONAL_ID',
      idNumberLast4: '3456', kycStatus: 'pending', kycReason: null, createdAt: '2026-06-15T12:00:00.000Z', updatedAt: '2026-06-15T12:00:00.000Z',
    }));
    expect(store.customers.get(id)).toMatchObject({ tenantId: 'ten_A', idNumber: 'AB123456', nextCheckAt: clock.now() });
  });

  it.each([
    ['a blank externalId', { externalId: ' ' }, 'externalId must not be blank', { field: 'externalId' }],
    ['a blank firstName', { firstName: '' }, 'firstName must not be blank', { field: 'firstName' }],
    ['a blank lastName', { lastName: '\t' }, 'lastName must not be blank', { field: 'lastName' }],
    ['a lower-case country', { country: 'ke' }, 'country must be an ISO 3166-1 alpha-2 code', { field: 'country' }],
    ['an unassigned country', { country: 'QQ' }, 'country must be an ISO 3166-1 alpha-2 code', { field: 'country' }],
    ['an unknown idType', { idType: 'VISA' as never }, 'idType must be one of PASSPORT, NATIONAL_ID, DRIVERS_LICENSE, BVN, NIN_V2, GHANA_CARD, ALIEN_CARD, NATIONAL_ID_NO_PHOTO', undefined],
    ['an id number of 3', { idNumber: 'A12' }, 'idNumber must be 4 to 32 letters, digits or dashes', { field: 'idNumber' }],
    ['an id number of 33', { idNumber: 'A'.repeat(33) }, 'idNumber must be 4 to 32 letters, digits or dashes', { field: 'idNumber' }],
    ['an id number with a space', { idNumber: 'AB 1234' }, 'idNumber must be 4 to 32 letters, digits or dashes', { field: 'idNumber' }],
    ['a date that does not exist', { dateOfBirth: '1990-02-30' }, 'dateOfBirth must be a real date, YYYY-MM-DD', { field: 'dateOfBirth' }],
    ['a date not in YYYY-MM-DD', { dateOfBirth: '17/05/1990' }, 'dateOfBirth must be a real date, YYYY-MM-DD', { field: 'dateOfBirth' }],
    ['a date with a time', { dateOfBirth: '1990-05-17T00:00' }, 'dateOfBirth must be a real date, YYYY-MM-DD', { field: 'dateOfBirth' }],
    ['a birth before 1900', { dateOfBirth: '1899-12-31' }, 'dateOfBirth must be 1900-01-01 or later', { field: 'dateOfBirth' }],
    ['a minor by one day', { dateOfBirth: '2008-06-16' }, 'the customer must be at least 18', { field: 'dateOfBirth' }],
  ] as [string, Partial<CreateCustomerCommand>, string, Record<string, unknown> | undefined][])('refuses %s, writing nothing', async (_name, o, message, details) => {
    expect(await createCustomer(deps, 'ten_A', command(o))).toEqual(err('validation_error', message, details));
    expect(store.customers.size).toBe(0);
  });

  it.each([['1900-01-01'], ['2008-06-15'], ['2000-02-29']])('accepts a birth date of %s (limits included)', async (dateOfBirth) => {
    expect((await createCustomer(deps, 'ten_A', command({ dateOfBirth }))).ok).toBe(true);
  });

  it.each(['XK', 'KE', 'ZW', 'AD'])('knows country %s', (code) => {
    expect(isCountryCode(code)).toBe(true);
  });

  it('refuses a duplicate externalId per tenant; another tenant may use it', async () => {
    routing.add('ten_B');
    await createCustomer(deps, 'ten_A', command());
    expect(await createCustomer(deps, 'ten_A', command())).toEqual(err('duplicate_customer', 'A customer with externalId u-1 already exists'));
    expect((await createCustomer(deps, 'ten_B', command())).ok).toBe(true);
  });

  it('refuses a tenant no KYC provider serves, writing nothing', async () => {
    expect(await createCustomer(deps, 'ten_L', command())).toEqual(err('provider_unavailable', 'No KYC provider is available for this tenant: no live rails'));
    expect(await createCustomer(deps, 'ten_X', command())).toEqual(err('provider_unavailable', 'No KYC provider is available for this tenant: unknown tenant'));
    expect(store.customers.size).toBe(0);
  });

  it('reads one customer of the tenant, and pages the list with its cursor', async () => {
    for (const externalId of ['u-1', 'u-2', 'u-3']) await createCustomer(deps, 'ten_A', command({ externalId }));
    const one = await getCustomer(deps, 'ten_A', 'cus_00000000000000000000000001');
    expect(one.ok && one.value.externalId).toBe('u-1');
    expect(await getCustomer(deps, 'ten_B', 'cus_00000000000000000000000001')).toEqual(err('not_found', 'Customer cus_00000000000000000000000001 not found'));
    const page = await listCustomers(deps, 'ten_A', 2);
    expect(page.ok && [page.value.entries.map((c) => c.externalId), page.value.cursors, page.value.nextCursor]).toEqual([['u-3', 'u-2'], ['1', '2'], '2']);
    const last = await listCustomers(deps, 'ten_A', 2, '2');
    expect(last).toEqual(ok({ entries: [expect.objectContaining({ externalId: 'u-1' })], cursors: ['3'] }));
    expect(await listCustomers(deps, 'ten_A', 2, 'bad')).toEqual(err('validation_error', 'cursor is not valid', { field: 'cursor' }));
  });

  describe('processDueKyc', () => {
    const id = 'cus_00000000000000000000000001';
    beforeEach(async () => {
      await createCustomer(deps, 'ten_A', command());
    });

    it('claims due customers with a lease, writes the decision and its customer.kyc.updated event once', async () => {
      answers.push({ kind: 'rejected', reason: 'document expired' });
      expect(await processDueKyc(deps, 5)).toBe(1);
      expect(customers.claims).toEqual([[clock.now(), 5, new Date(clock.now().getTime() + 30_000)]]);
      expect(store.customers.get(id)).toMatchObject({ kycStatus: 'rejected', kycReason: 'document expired', nextCheckAt: null, updatedAt: clock.now() });
      expect(store.outbox).toEqual([{
        id: '00000000-0000-4000-8000-000000000002', tenantId: 'ten_A', type: 'customer.kyc.updated', entityId: id, createdAt: clock.now(),
        payload: expect.objectContaining({ id, kycStatus: 'rejected', kycReason: 'document expired', idNumberLast4: '3456' }),
      }]);
      expect(store.outbox[0]!.payload).not.toHaveProperty('idNumber');
      expect(events).toEqual(['decided rejected']);
      expect(await processDueKyc(deps, 5)).toBe(0);
    });

    it('approves without a reason', async () => {
      answers.push({ kind: 'approved' });
      await processDueKyc(deps, 5);
      expect(store.customers.get(id)).toMatchObject({ kycStatus: 'approved', kycReason: null });
      expect(events).toEqual(['decided approved']);
    });

    it('looks again after the provider\'s wait when it is still pending', async () => {
      answers.push({ kind: 'pending', afterMs: 7_000 });
      await processDueKyc(deps, 5);
      expect(customers.rescheduled).toEqual([[id, new Date(clock.now().getTime() + 7_000)]]);
      expect(store.outbox).toEqual([]);
      expect(events).toEqual([]);
    });

    it('a pending answer with a reason shows it while the customer stays pending, and emits nothing', async () => {
      answers.push({ kind: 'pending', afterMs: 9_000, reason: 'The ID authority was unavailable (4 attempts); trying again later' });
      await processDueKyc(deps, 5);
      expect(store.customers.get(id)).toMatchObject({ kycStatus: 'pending', kycReason: 'The ID authority was unavailable (4 attempts); trying again later' });
      expect(customers.rescheduled).toEqual([[id, new Date(clock.now().getTime() + 9_000)]]);
      expect(store.outbox).toEqual([]);
    });

    it('reports a provider fault and asks again after 5 s', async () => {
      await processDueKyc(deps, 5);
      expect(events).toEqual([`error ${id} provider down for ${id}`]);
      expect(customers.rescheduled).toEqual([[id, new Date(clock.now().getTime() + 5_000)]]);
    });

    it('leaves a customer no provider serves pending, reported, for an hour', async () => {
      routing.add('ten_A', 'live');
      await processDueKyc(deps, 5);
      expect(events).toEqual([`unrouted ${id} no live rails`]);
      expect(customers.rescheduled).toEqual([[id, new Date(clock.now().getTime() + UNROUTED_RECHECK_MS)]]);
      expect(store.customers.get(id)!.kycStatus).toBe('pending');
    });

    it('writes nothing when another worker decided first', async () => {
      answers.push({ kind: 'approved' });
      const decideFirst = { ...deps, uow: { transact: (work: Parameters<MemoryStore['transact']>[0]) => store.transact((tx) => work({ ...tx, customers: { release: async () => false, decide: async () => undefined } })) } };
      await processDueKyc(decideFirst as KycWorkerDeps, 5);
      expect(store.outbox).toEqual([]);
      expect(events).toEqual([]);
    });
  });
});
