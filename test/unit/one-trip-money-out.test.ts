import { createMoneyOut, type MoneyOutDeps } from '../../src/core/payments/create-money-out';
import type { OneTripPaymentWriter } from '../../src/core/payments/payment-ports';
import { Quote } from '../../src/core/quotes/quote';
import { err } from '../../src/core/shared/result';
import { command, fakeWorld, KES_1500_USDC, TENANT, holdIdempotencyKey, type FakeWorld } from '../support/fake-world';

const KEY = '0f8fad5b-d9cb-469f-a165-70867728950e';
const OTHER_KEY = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

/**
 * Which path a money-out takes (docs/decisions.md § Performance: a money-out in one round trip): a
 * new one without a quote is written by the one-trip writer; whatever that writer leaves undecided
 * (a replay, a key in flight, a hold it could not post) is answered by the transactional path, as
 * before; a quote always takes the transactional path, which consumes it.
 */
describe('createMoneyOut: the one-trip write and the transactional path', () => {
  let world: FakeWorld;
  beforeEach(() => {
    world = fakeWorld();
    world.store.fund(TENANT, 'USDC', '100');
  });
  const run = (cmd = command(), key = KEY, deps: MoneyOutDeps = world.moneyOut) => createMoneyOut(deps, TENANT, key, cmd);
  /** The world's writer, counting its calls and what it answered. */
  const counting = () => {
    const answers: string[] = [];
    const oneTrip: OneTripPaymentWriter = { createIfFirst: async (w) => { const a = await world.store.oneTrip.createIfFirst(w); answers.push(a); return a; } };
    return { deps: { ...world.moneyOut, oneTrip }, answers };
  };

  it('writes a new money-out without a quote in one trip: one commit, nothing rolled back', async () => {
    const { deps, answers } = counting();
    const r = await run(command(), KEY, deps);
    expect(r.ok && r.value.replayed).toBe(false);
    expect(answers).toEqual(['created']);
    expect([world.store.oneTripWrites, world.store.commits, world.store.rollbacks]).toEqual([1, 1, 0]);
    expect(world.store.balance(TENANT, 'USDC', 'held')).toBe(KES_1500_USDC);
    expect(world.created).toEqual(['pay_00000000000000000000000001']);
  });

  it('leaves a replay to the transactional path, which answers the stored payment and writes nothing more', async () => {
    const first = await run();
    const { deps, answers } = counting();
    const again = await run(command(), KEY, deps);
    expect(answers).toEqual(['undecided']);
    expect(again.ok && again.value).toEqual({ payment: first.ok && first.value.payment, replayed: true });
    expect([world.store.payments.size, world.store.oneTripWrites]).toEqual([1, 1]);
    expect(world.created).toHaveLength(1);
  });

  it('leaves a key in flight to the transactional path, which answers idempotency_key_in_use', async () => {
    const holding = await holdIdempotencyKey(world.store, TENANT, KEY);
    const { deps, answers } = counting();
    expect(await run(command(), KEY, deps)).toEqual(err('idempotency_key_in_use', expect.any(String)));
    expect(answers).toEqual(['undecided']);
    await holding.release();
    expect(world.store.payments.size).toBe(0);
  });

  it('a duplicate reference from the one-trip writer is the answer, with no second attempt', async () => {
    await run();
    const { deps, answers } = counting();
    const commits = world.store.commits;
    expect(await run(command(), OTHER_KEY, deps)).toEqual(err('duplicate_reference', 'A payment with reference order-1 already exists'));
    expect(answers).toEqual(['duplicate_reference']);
    expect(world.store.commits).toBe(commits);
  });

  it('creates the same payment on the transactional path when the writer leaves every money-out undecided', async () => {
    const viaOneTrip = await run();
    world = fakeWorld();
    world.store.fund(TENANT, 'USDC', '100');
    const undecided: OneTripPaymentWriter = { createIfFirst: async () => 'undecided' };
    const viaTransaction = await run(command(), KEY, { ...world.moneyOut, oneTrip: undecided });
    expect(world.store.oneTripWrites).toBe(0);
    // The transactional path draws new ids: the answers differ only in the payment's id.
    expect(viaTransaction.ok && { ...viaTransaction.value.payment, id: 'x' }).toEqual(viaOneTrip.ok && { ...viaOneTrip.value.payment, id: 'x' });
    expect(world.store.balance(TENANT, 'USDC', 'held')).toBe(KES_1500_USDC);
    expect(world.store.idempotency.size).toBe(1);
  });

  it('never uses the one-trip writer for a money-out with a quote', async () => {
    world.store.quotes.set('quo_1', new Quote({
      id: 'quo_1', tenantId: TENANT, fiatCurrency: 'KES', stablecoin: 'USDC', fiatAmount: '1500.00', exchangeRate: '150',
      payoutFee: '0.510000', convertedAmount: '10.510000', paymentMethod: 'MOMO', country: 'KE', blockchain: 'SOLANA',
      optionalIssuerFee: 'NO', expiresAt: new Date(Date.parse('2026-01-01T00:00:30.000Z')), createdAt: new Date(0), usedAt: null, paymentId: null,
    }));
    const { deps, answers } = counting();
    const r = await run(command({ quoteId: 'quo_1' }), KEY, deps);
    expect(r.ok && r.value.payment.exchangeRate).toBe('150');
    expect(answers).toEqual([]);
    expect(world.store.quotes.get('quo_1')!.usedAt).toEqual(world.clock.now());
  });
});
