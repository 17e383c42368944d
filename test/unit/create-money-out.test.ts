import { createMoneyOut, type MoneyOutDeps } from '../../src/core/payments/create-money-out';
import { Quote } from '../../src/core/quotes/quote';
import type { PayoutRouted } from '../../src/core/routing/provider-routing';
import { err, ok } from '../../src/core/shared/result';
import { command, fakeWorld, KES_1500_USDC, LIVE_TENANT, OTHER_TENANT, TENANT, holdIdempotencyKey, type FakeWorld } from '../support/fake-world';

const KEY = '0f8fad5b-d9cb-469f-a165-70867728950e';
const OTHER_KEY = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const HOUR = 3_600_000;

/** createMoneyOut (OpenAPI createMoneyOut) on in-memory ports: what it writes, what it refuses, and that a refusal writes nothing. */
describe('createMoneyOut on fakes', () => {
  let world: FakeWorld;
  beforeEach(() => {
    world = fakeWorld();
    world.store.fund(TENANT, 'USDC', '100');
  });
  const run = (cmd = command(), key: string | undefined = KEY, deps: MoneyOutDeps = world.moneyOut, tenant = TENANT) =>
    createMoneyOut(deps, tenant, key, cmd);
  const nothingWritten = () => {
    expect(world.store.payments.size).toBe(0);
    expect(world.store.idempotency.size).toBe(0);
    expect(world.store.outbox).toEqual([]);
    expect(world.store.transfers.filter((t) => t.kind !== 'sandbox_funding')).toEqual([]);
    expect(world.store.balance(TENANT, 'USDC', 'available')).toBe('100.000000');
    expect(world.store.balance(TENANT, 'USDC', 'held')).toBe('0.000000');
    expect(world.created).toEqual([]);
  };

  it('creates the payment in initiated, with its event, its idempotency record and its hold, in one commit', async () => {
    const r = await run();
    if (!r.ok) throw new Error(r.message);
    const now = world.clock.now();
    const id = 'pay_00000000000000000000000001';
    expect(r.value).toEqual({
      replayed: false,
      payment: {
        id, status: 'initiated', paymentMethod: 'MOMO', sourceCurrency: 'USDC', amountStablecoin: KES_1500_USDC,
        fiatAmount: '1500.00', destinationCurrency: 'KES', providerRef: null, reference: 'order-1',
        createdAt: now.toISOString(), updatedAt: now.toISOString(), failureReason: null, failureCode: null, exchangeRate: '129.25',
        payoutFee: '0.510000',
      },
    });
    const stored = world.store.payments.get(id)!;
    expect(stored).toMatchObject({ tenantId: TENANT, status: 'initiated', nextActionAt: now, attempts: 0, quoteId: null, acceptedAt: null });
    expect(world.store.outbox).toEqual([
      { id: expect.stringMatching(/^00000000-0000-4000-8000-/), tenantId: TENANT, type: 'payment.initiated', entityId: id, payload: r.value.payment, createdAt: now },
    ]);
    expect(world.store.transfers.filter((t) => t.kind !== 'sandbox_funding')).toEqual([
      expect.objectContaining({ tenantId: TENANT, currency: 'USDC', from: 'available', to: 'held', kind: 'hold', amount: KES_1500_USDC, paymentId: id, requireFunds: true }),
    ]);
    expect(world.store.balance(TENANT, 'USDC', 'available')).toBe('87.884584');
    expect(world.store.balance(TENANT, 'USDC', 'held')).toBe(KES_1500_USDC);
    expect(world.store.commits).toBe(1);
    expect(world.created).toEqual([id]);
  });

  it('remembers the key lower-cased, for 24 hours exactly, with the fingerprint of the canonical request', async () => {
    const r = await run(command(), KEY.toUpperCase());
    expect(r.ok).toBe(true);
    const now = world.clock.now();
    expect([...world.store.idempotency.values()]).toEqual([{
      tenantId: TENANT, key: KEY, operation: 'moneyout', resourceId: 'pay_00000000000000000000000001',
      responseBody: r.ok && r.value.payment, createdAt: now, expiresAt: new Date(now.getTime() + 24 * HOUR),
      // Keys sorted, the amount as the exact decimal the rules accepted.
      fingerprint: '{"accountName":"Jane Wanjiku","accountNumber":"254712345678","blockchain":"SOLANA","country":"KE",'
        + '"destinationCurrency":"KES","fiatAmount":"1500","operation":"moneyout","optionalIssuerFee":"NO","paymentCode":"MPESA","paymentMethod":"MOMO",'
        + '"reference":"order-1","refundAddress":"7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU","sourceCurrency":"USDC"}',
    }]);
  });

  it('replays the first answer for the same key and command, in any letter case, without writing again', async () => {
    const first = await run(command(), KEY.toUpperCase());
    world.clock.advance(1000);
    const again = await run(command(), KEY);
    expect(again).toEqual(first.ok && ok({ payment: first.value.payment, replayed: true }));
    expect(world.store.payments.size).toBe(1);
    expect(world.store.transfers.filter((t) => t.kind === 'hold')).toHaveLength(1);
    expect(world.created).toHaveLength(1);
  });

  it('fingerprints the same request the same way whatever its member order, with or without undefined members', async () => {
    await run(command({ businessNumber: undefined }));
    const reordered = Object.fromEntries(Object.entries(command()).reverse()) as ReturnType<typeof command>;
    expect((await run(reordered)).ok && 'replayed').toBe('replayed');
    expect((await run(command({ fiatAmount: '1500.00' }))).ok && 'replayed').toBe('replayed');
  });

  it('keeps the key for its lifetime in hours and forgets it after', async () => {
    await run();
    world.clock.advance(24 * HOUR - 1);
    const late = await run();
    expect(late.ok && late.value.replayed).toBe(true);
    world.clock.advance(1);
    // Expired: the key is free for another request (this one with another reference).
    const reused = await run(command({ reference: 'order-2' }));
    expect(reused.ok && reused.value.replayed).toBe(false);
  });

  it('honours a configured lifetime in hours', async () => {
    world = fakeWorld({ idempotencyTtlHours: 2 });
    world.store.fund(TENANT, 'USDC', '100');
    await run();
    world.clock.advance(2 * HOUR - 1);
    expect((await run()).ok).toBe(true);
    expect([...world.store.idempotency.values()][0]!.expiresAt).toEqual(new Date(Date.parse('2026-01-01T02:00:00.000Z')));
  });

  it('refuses the same key with another command, writing nothing more', async () => {
    await run();
    const other = await run(command({ fiatAmount: 1600, reference: 'order-2' }));
    expect(other).toEqual(err('idempotency_key_reused', expect.any(String)));
    expect(world.store.payments.size).toBe(1);
    expect(world.created).toHaveLength(1);
  });

  it('keys are per tenant: another tenant may use the same key', async () => {
    world.store.fund(OTHER_TENANT, 'USDC', '100');
    await run();
    const theirs = await run(command(), KEY, world.moneyOut, OTHER_TENANT);
    expect(theirs.ok && theirs.value.replayed).toBe(false);
    expect(world.store.payments.size).toBe(2);
  });

  it('answers idempotency_key_in_use while the first request holds the key, and writes nothing', async () => {
    const holding = await holdIdempotencyKey(world.store, TENANT, KEY);
    expect(await run()).toEqual(err('idempotency_key_in_use', expect.any(String)));
    await holding.release();
    nothingWritten();
    // The lock is released with its transaction.
    expect((await run()).ok).toBe(true);
  });

  it.each([undefined, '', 'not-a-uuid', `${KEY}0`])('refuses idempotency key %p as validation_error on idempotencyKey', async (key) => {
    expect(await createMoneyOut(world.moneyOut, TENANT, key, command())).toEqual(err('validation_error', 'idempotencyKey is required and must be a UUID', { field: 'idempotencyKey' }));
    nothingWritten();
  });

  it('returns the rules\' validation errors and writes nothing', async () => {
    const r = await run(command({ fiatAmount: '1500.505' }));
    expect(r.ok ? 'ok' : [r.code, r.details]).toEqual(['validation_error', { field: 'fiatAmount' }]);
    nothingWritten();
  });

  it('accepts a payment of exactly the available balance, leaving zero available', async () => {
    world = fakeWorld();
    world.store.fund(TENANT, 'USDC', KES_1500_USDC);
    const r = await run();
    expect(r.ok && r.value.replayed).toBe(false);
    expect(world.store.balance(TENANT, 'USDC', 'available')).toBe('0.000000');
    expect(world.store.balance(TENANT, 'USDC', 'held')).toBe(KES_1500_USDC);
  });

  it('refuses a payment one unit above the available balance as insufficient_balance, rolling everything back', async () => {
    world = fakeWorld();
    world.store.fund(TENANT, 'USDC', '12.115415');
    expect(await run()).toEqual(err('insufficient_balance', 'Available USDC balance does not cover 12.115416'));
    expect(world.store.payments.size).toBe(0);
    expect(world.store.idempotency.size).toBe(0);
    expect(world.store.outbox).toEqual([]);
    expect(world.store.balance(TENANT, 'USDC', 'available')).toBe('12.115415');
    // Once when the one-trip write found its hold refused, once on the transactional path that refuses it.
    expect(world.store.rollbacks).toBe(2);
    expect(world.created).toEqual([]);
  });

  it('refuses a reference the tenant already used, writing nothing more', async () => {
    await run();
    expect(await run(command(), OTHER_KEY)).toEqual(err('duplicate_reference', 'A payment with reference order-1 already exists'));
    expect(world.store.payments.size).toBe(1);
    expect(world.store.balance(TENANT, 'USDC', 'held')).toBe(KES_1500_USDC);
  });

  it.each([
    [LIVE_TENANT, err('corridor_not_available', 'No payout provider serves this corridor: no live rails')],
    ['ten_UNKNOWN', err('provider_unavailable', 'No payout provider is available for this tenant: unknown tenant')],
  ])('refuses tenant %s when no provider serves its corridor, writing nothing', async (tenant, refusal) => {
    world.store.fund(tenant, 'USDC', '100');
    expect(await run(command(), KEY, world.moneyOut, tenant)).toEqual(refusal);
    expect(world.store.payments.size).toBe(0);
    expect(world.store.idempotency.size).toBe(0);
  });

  it.each([[30_000, 30], [1_500, 2], [10, 1]])('refuses providers that refuse calls for %i ms as provider_unavailable, retryAfterS %i, writing nothing', async (retryAfterMs, retryAfterS) => {
    const routedAs = (routed: PayoutRouted): MoneyOutDeps => ({ ...world.moneyOut, routing: Object.assign(Object.create(world.routing), { payoutProvidersFor: () => routed }) });
    const failing = routedAs({ kind: 'unavailable', reason: 'every payout provider is failing', retryAfterMs });
    expect(await run(command(), KEY, failing)).toEqual(err('provider_unavailable', 'No payout provider is available for this tenant: every payout provider is failing', { retryAfterS }));
    const unknownWait = routedAs({ kind: 'unavailable', reason: 'down' });
    expect(await run(command(), OTHER_KEY, unknownWait)).toEqual(err('provider_unavailable', 'No payout provider is available for this tenant: down'));
    nothingWritten();
  });

  it('maps the rate source: an unserved pair is unsupported_corridor, no live rate rate_unavailable with only its retry time', async () => {
    const unserved = { ...world.moneyOut, rates: { rate: async () => err('unsupported_pair' as const, 'No rate for KES/USDC') } };
    expect(await run(command(), KEY, unserved)).toEqual(err('unsupported_corridor', 'No rate for KES/USDC'));
    const down = { ...world.moneyOut, rates: { rate: async () => err('rate_unavailable' as const, 'down', { retryAfterS: 5, leftOut: ['luno'] }) } };
    expect(await run(command(), KEY, down)).toEqual(err('rate_unavailable', 'No live exchange rate for KES/USDC now; retry later', { retryAfterS: 5 }));
    const noWait = { ...world.moneyOut, rates: { rate: async () => err('rate_unavailable' as const, 'down') } };
    expect(await run(command(), OTHER_KEY, noWait)).toEqual(err('rate_unavailable', 'No live exchange rate for KES/USDC now; retry later'));
    nothingWritten();
  });

  describe('with a quote', () => {
    const quote = (o: Partial<Quote> = {}) => new Quote({
      id: 'quo_1', tenantId: TENANT, fiatCurrency: 'KES', stablecoin: 'USDC', fiatAmount: '1500.00', exchangeRate: '150',
      payoutFee: '0.510000', convertedAmount: '10.510000', paymentMethod: 'MOMO', country: 'KE', blockchain: 'SOLANA',
      optionalIssuerFee: 'NO', expiresAt: new Date(Date.parse('2026-01-01T00:00:30.000Z')), createdAt: new Date(0), usedAt: null, paymentId: null,
      ...o,
    });
    const withQuote = (o: Partial<Quote> = {}) => world.store.quotes.set('quo_1', quote(o));

    it('prices at the quote\'s locked rate and consumes the quote with the payment', async () => {
      withQuote();
      const r = await run(command({ quoteId: 'quo_1' }));
      expect(r.ok && [r.value.payment.exchangeRate, r.value.payment.amountStablecoin]).toEqual(['150', '10.510000']);
      expect(world.store.quotes.get('quo_1')).toMatchObject({ usedAt: world.clock.now(), paymentId: 'pay_00000000000000000000000001' });
      expect(world.store.payments.get('pay_00000000000000000000000001')!.quoteId).toBe('quo_1');
    });

    it('refuses a quote used by another money-out, and replays its own even once used', async () => {
      withQuote();
      await run(command({ quoteId: 'quo_1' }));
      expect((await run(command({ quoteId: 'quo_1' }))).ok && 'replayed').toBe('replayed');
      expect(await run(command({ quoteId: 'quo_1', reference: 'order-2' }), OTHER_KEY))
        .toEqual(err('quote_already_used', expect.any(String)));
    });

    it('frees the quote again when the payment is refused', async () => {
      world = fakeWorld();
      withQuote();
      expect((await run(command({ quoteId: 'quo_1' }))).ok).toBe(false);
      expect(world.store.quotes.get('quo_1')).toMatchObject({ usedAt: null, paymentId: null });
    });

    it('is expired at its expiry instant, valid one millisecond before', async () => {
      withQuote({ expiresAt: new Date(world.clock.now().getTime() + 1) });
      expect((await run(command({ quoteId: 'quo_1' }))).ok).toBe(true);
      withQuote({ expiresAt: world.clock.now() });
      expect(await run(command({ quoteId: 'quo_1', reference: 'order-2' }), OTHER_KEY)).toEqual(err('quote_expired', expect.any(String)));
    });

    it.each([
      ['an unknown quote', {}, { quoteId: 'quo_2' }, 'quoteId does not match a quote of yours'],
      ['another tenant\'s quote', { tenantId: OTHER_TENANT }, {}, 'quoteId does not match a quote of yours'],
      ['another amount', { fiatAmount: '1600' }, {}, 'quoteId was issued for another amount (1600 KES)'],
      ['another fiat currency', { fiatCurrency: 'UGX' }, {}, 'quoteId was issued for another currency pair (UGX to USDC)'],
      ['another stablecoin', { stablecoin: 'USDT' }, {}, 'quoteId was issued for another currency pair (KES to USDT)'],
      ['another method', { paymentMethod: 'BANK' }, {}, 'quoteId was issued for another payment method (BANK)'],
    ] as const)('refuses %s as validation_error on quoteId, writing nothing', async (_name, q, cmd, message) => {
      withQuote(q);
      expect(await run(command({ quoteId: 'quo_1', ...cmd }))).toEqual(err('validation_error', message, { field: 'quoteId' }));
      nothingWritten();
      expect(world.store.quotes.get('quo_1')!.usedAt).toBeNull();
    });

    it('accepts the same amount written with other decimals', async () => {
      withQuote({ fiatAmount: '1500' });
      expect((await run(command({ quoteId: 'quo_1', fiatAmount: '1500.00' }))).ok).toBe(true);
    });
  });
});
