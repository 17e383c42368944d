import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseOfacSdn } from '../../src/adapters/providers/sanctions/ofac-sdn.parser';
import { SanctionsIndex } from '../../src/adapters/providers/sanctions/sanctions-index';
import { createMoneyOut, type MoneyOutScreening } from '../../src/core/payments/create-money-out';
import { processDuePayments } from '../../src/core/payments/advance-payment';
import type { ProviderRouting } from '../../src/core/routing/provider-routing';
import { clearReview, rejectReview, type ReviewDeps } from '../../src/core/screening/review-decisions';
import { command, fakeWorld, LIVE_TENANT, TENANT, type FakeWorld } from '../support/fake-world';

const sdn = parseOfacSdn(readFileSync(path.join(__dirname, '../fixtures/screening/ofac-sdn.xml'), 'utf8'));
if (!sdn.ok) throw new Error('fixture must parse');
const loaded = new SanctionsIndex([{ ...sdn.value, loadedAt: new Date() }], 0.92);
const empty = new SanctionsIndex([], 0.92);
const KEY = '2f1c1a52-6a7e-4d8e-9a55-0c1f3e4b5a69';

/**
 * The money-out's screening and the review decisions through the core's ports (docs/decisions.md §
 * Screening): held payments are never claimed by the payout worker; clear submits, reject fails as
 * compliance_rejected with the hold released; no list and screening required refuses live tenants.
 */
describe('money-out screening in the core', () => {
  let world: FakeWorld;
  const screened = (screen: SanctionsIndex, required = true): MoneyOutScreening => ({ screen, policy: { required, maxAgeDays: 7, retryAfterS: 60 } });
  const reviewDeps = (): ReviewDeps => ({
    ...world.advance,
    reviews: { find: async (id) => world.store.reviews.get(id), list: async () => [...world.store.reviews.values()] },
  });

  beforeEach(() => {
    world = fakeWorld();
    for (const tenant of [TENANT, LIVE_TENANT]) world.store.fund(tenant, 'USDC', '100');
  });

  it('a live money-out while no list is loaded is refused when screening is required, and writes nothing', async () => {
    // A live rail serves the live tenant here, so only screening stands in the way.
    const routing: ProviderRouting = {
      payoutProvidersFor: () => ({ kind: 'providers', providers: [world.provider] }),
      payoutProviderNamed: () => world.provider,
      kycProviderFor: () => ({ kind: 'unavailable', reason: 'not used here' }),
    };
    const live = { ...world.moneyOut, routing };
    const refused = await createMoneyOut({ ...live, screening: screened(empty) }, LIVE_TENANT, KEY, command());
    expect(refused).toMatchObject({ ok: false, code: 'screening_unavailable', message: expect.stringMatching(/screening/), details: { retryAfterS: 60 } });
    expect(world.store.payments.size).toBe(0);
    expect(world.store.balance(LIVE_TENANT, 'USDC', 'available')).toBe('100.000000');
    const sandbox = await createMoneyOut({ ...world.moneyOut, screening: screened(empty) }, TENANT, KEY, command());
    expect(sandbox.ok).toBe(true);
    const notRequired = await createMoneyOut({ ...live, screening: screened(empty, false) }, LIVE_TENANT, KEY, command());
    expect(notRequired.ok).toBe(true);
  });

  it('a hit is written initiated with its review and never claimed; clear makes it due and it is submitted', async () => {
    const created = await createMoneyOut({ ...world.moneyOut, screening: screened(loaded) }, TENANT, KEY, command({ accountName: 'Vladimir Petrovsky' }));
    if (!created.ok) throw new Error(created.message);
    const id = created.value.payment.id;
    expect(world.store.payments.get(id)).toMatchObject({ status: 'initiated', nextActionAt: null });
    expect(world.store.reviews.get(id)).toMatchObject({ status: 'pending', hits: [{ kind: 'name', entryId: '90001' }] });
    await processDuePayments(world.advance, 10);
    expect(world.provider.calls).toEqual([]);

    const cleared = await clearReview(reviewDeps(), id, 'key_ADMIN', 'Another person: date of birth differs');
    expect(cleared).toMatchObject({ ok: true, value: { status: 'cleared', decidedBy: 'key_ADMIN', reason: 'Another person: date of birth differs' } });
    await processDuePayments(world.advance, 10);
    expect(world.provider.calls).toEqual([{ call: 'submit', paymentId: id }]);
    expect(world.store.payments.get(id)?.status).toBe('provider_accepted');
  });

  it('reject fails the held payment as compliance_rejected and releases its hold; an address hit cannot be cleared', async () => {
    const created = await createMoneyOut({ ...world.moneyOut, screening: screened(loaded) }, TENANT, KEY,
      command({ refundAddress: '0x7F367CC41522CE07553E823BF3BE79A889DEBE1B', blockchain: 'BSC' }));
    if (!created.ok) throw new Error(created.message);
    const id = created.value.payment.id;
    expect(world.store.balance(TENANT, 'USDC', 'available')).not.toBe('100.000000');
    expect(await clearReview(reviewDeps(), id, 'key_ADMIN', 'looks fine')).toMatchObject({ ok: false, code: 'invalid_state' });
    expect(await rejectReview(reviewDeps(), id, 'key_ADMIN', '')).toMatchObject({ ok: false, code: 'validation_error' });
    const rejected = await rejectReview(reviewDeps(), id, 'key_ADMIN', 'Listed wallet');
    expect(rejected).toMatchObject({ ok: true, value: { status: 'rejected', decidedBy: 'key_ADMIN' } });
    expect(world.store.payments.get(id)).toMatchObject({ status: 'failed', failureCode: 'compliance_rejected', nextActionAt: null });
    expect(world.store.balance(TENANT, 'USDC', 'available')).toBe('100.000000');
    expect(world.provider.calls).toEqual([]);
    expect(await rejectReview(reviewDeps(), id, 'key_ADMIN', 'again')).toMatchObject({ ok: false, code: 'invalid_state' });
  });
});
