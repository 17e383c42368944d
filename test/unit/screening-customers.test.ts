import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseOfacSdn } from '../../src/adapters/providers/sanctions/ofac-sdn.parser';
import { SanctionsIndex } from '../../src/adapters/providers/sanctions/sanctions-index';
import type { KycOutcome, KycProvider } from '../../src/core/customers/customer';
import { createCustomer, processDueKyc, type CreateCustomerCommand, type KycWorkerDeps } from '../../src/core/customers/manage-customers';
import { clearReview, rejectReview, type ReviewDeps } from '../../src/core/screening/review-decisions';
import type { SubjectScreening } from '../../src/core/screening/screening-rules';
import { FakeRouting, FixedClock, MemoryStore, ScriptedProvider, SequentialIds } from '../support/fakes';
import { MemoryCustomers } from '../support/memory-customers';

const sdn = parseOfacSdn(readFileSync(path.join(__dirname, '../fixtures/screening/ofac-sdn.xml'), 'utf8'));
if (!sdn.ok) throw new Error('fixture must parse');
const loaded = new SanctionsIndex([{ ...sdn.value, loadedAt: new Date() }], 0.92);
const empty = new SanctionsIndex([], 0.92);

const command = (o: Partial<CreateCustomerCommand> = {}): CreateCustomerCommand => ({
  externalId: `u-${Math.random()}`, firstName: 'Amina', lastName: 'Otieno', country: 'KE', dateOfBirth: '1990-05-17', idType: 'NATIONAL_ID', idNumber: 'AB123456', ...o,
});

/**
 * Customers screened at creation through the core's ports (docs/decisions.md § Screening:
 * customers): a name hit creates the customer pending but held, with its review; the KYC provider
 * is not asked until a clear; a reject makes it rejected with its event; no list refuses live tenants.
 */
describe('customer screening in the core', () => {
  let clock: FixedClock;
  let store: MemoryStore;
  let customers: MemoryCustomers;
  let asked: string[];
  let held: string[];
  let deps: KycWorkerDeps;
  let reviewDeps: ReviewDeps;
  let kyc: KycProvider;
  const screening = (screen: SanctionsIndex, required = true): SubjectScreening => ({
    screen, policy: { required, maxAgeDays: 7, retryAfterS: 60 }, onHeld: (id) => held.push(id),
  });

  beforeEach(() => {
    clock = new FixedClock('2026-06-15T12:00:00.000Z');
    const ids = new SequentialIds();
    store = new MemoryStore(clock, ids);
    customers = new MemoryCustomers(store);
    asked = [];
    held = [];
    kyc = { check: async (c): Promise<KycOutcome> => { asked.push(c.id); return { kind: 'approved' }; } };
    const routing = new FakeRouting(new ScriptedProvider(), kyc).add('ten_A').add('ten_L', 'live');
    deps = { customers, clock, ids, routing, environments: routing, uow: store, leaseMs: 30_000, customerScreening: screening(loaded) };
    reviewDeps = {
      uow: store, payments: {} as never, clock, ids, environments: routing,
      reviews: { find: async (id) => store.reviews.get(id), list: async () => [...store.reviews.values()] },
    };
  });

  async function heldCustomer(firstName: string, lastName: string): Promise<string> {
    const created = await createCustomer(deps, 'ten_A', command({ firstName, lastName }));
    if (!created.ok) throw new Error(created.message);
    return created.value.id;
  }

  it('a listed name creates the customer pending, held with a review, and the KYC provider is never asked', async () => {
    const id = await heldCustomer('Vladimir', 'Petrovsky');
    expect(store.customers.get(id)).toMatchObject({ kycStatus: 'pending', kycReason: null, nextCheckAt: null });
    expect(store.reviews.get(id)).toMatchObject({
      subjectKind: 'customer', subjectId: id, tenantId: 'ten_A', status: 'pending', hits: [{ kind: 'name', source: 'ofac-sdn', entryId: '90001' }],
    });
    expect(held).toEqual([id]);
    clock.advance(60_000);
    expect(await processDueKyc(deps, 10)).toBe(0);
    expect(asked).toEqual([]);
  });

  it('a name below the threshold passes: due for its KYC check at once, no review', async () => {
    const created = await createCustomer(deps, 'ten_A', command({ firstName: 'Eric', lastName: 'Baraka' }));
    expect(created.ok).toBe(true);
    const id = created.ok ? created.value.id : '';
    expect(store.reviews.has(id)).toBe(false);
    expect(store.customers.get(id)?.nextCheckAt).toEqual(clock.now());
    await processDueKyc(deps, 10);
    expect(asked).toEqual([id]);
    expect(store.customers.get(id)?.kycStatus).toBe('approved');
  });

  it('clear: recorded with who and why, and the KYC check proceeds', async () => {
    const id = await heldCustomer('Khalid Abdullah', 'Al Rashidi');
    const cleared = await clearReview(reviewDeps, id, 'key_ops', 'Different date of birth');
    expect(cleared).toMatchObject({ ok: true, value: { status: 'cleared', decidedBy: 'key_ops', reason: 'Different date of birth', decidedAt: clock.now() } });
    expect(store.customers.get(id)?.nextCheckAt).toEqual(clock.now());
    await processDueKyc(deps, 10);
    expect(asked).toEqual([id]);
    expect(store.customers.get(id)?.kycStatus).toBe('approved');
    expect((await rejectReview(reviewDeps, id, 'key_ops', 'changed my mind'))).toMatchObject({ ok: false, code: 'invalid_state' });
  });

  it('reject: the customer is rejected with reason code compliance_rejected and its customer.kyc.updated event, never checked', async () => {
    const id = await heldCustomer('Samuel Kiprono', 'Chebet');
    const rejected = await rejectReview(reviewDeps, id, 'key_ops', 'Same person as the listed entry');
    expect(rejected).toMatchObject({ ok: true, value: { status: 'rejected', decidedBy: 'key_ops', reason: 'Same person as the listed entry' } });
    expect(store.customers.get(id)).toMatchObject({ kycStatus: 'rejected', kycReason: 'compliance_rejected', nextCheckAt: null });
    expect(store.outbox).toEqual([expect.objectContaining({ type: 'customer.kyc.updated', entityId: id, payload: expect.objectContaining({ kycStatus: 'rejected', kycReason: 'compliance_rejected' }) })]);
    await processDueKyc(deps, 10);
    expect(asked).toEqual([]);
    expect((await clearReview(reviewDeps, id, 'key_ops', 'oops'))).toMatchObject({ ok: false, code: 'invalid_state' });
  });

  it('a decision needs a reason, and an unknown id is not_found', async () => {
    const id = await heldCustomer('Vladimir', 'Petrovsky');
    expect(await clearReview(reviewDeps, id, 'key_ops', '  ')).toMatchObject({ ok: false, code: 'validation_error' });
    expect(await rejectReview(reviewDeps, 'cus_unknown', 'key_ops', 'why')).toMatchObject({ ok: false, code: 'not_found' });
    expect(store.reviews.get(id)?.status).toBe('pending');
  });

  it('no list loaded: a live customer is refused with screening_unavailable and nothing written; sandbox and not-required pass', async () => {
    // A live KYC provider serves the live tenant here, so only screening stands in the way.
    const routing = { ...deps.routing, kycProviderFor: () => ({ kind: 'provider' as const, provider: kyc }) };
    const live = { ...deps, routing, customerScreening: screening(empty) };
    expect(await createCustomer(live, 'ten_L', command())).toMatchObject({ ok: false, code: 'screening_unavailable', details: { retryAfterS: 60 } });
    expect(store.customers.size).toBe(0);
    expect((await createCustomer(live, 'ten_A', command())).ok).toBe(true);
    expect((await createCustomer({ ...live, customerScreening: screening(empty, false) }, 'ten_L', command())).ok).toBe(true);
  });
});
