import { AuthFailures } from '../../src/adapters/access/auth-failures';
import { memoryCounterStore } from '../../src/adapters/access/counter-store';
import { AddressRateLimits, RateLimits, rateLimitHeaders } from '../../src/adapters/access/rate-limits';

describe('RateLimits and AuthFailures in memory', () => {
  beforeEach(() => jest.useFakeTimers({ now: new Date('2026-11-23T10:00:00Z') }));
  afterEach(() => jest.useRealTimers());
  const principal = { keyId: 'key_1', tenantId: 'ten_1', scope: 'issuer' as const };

  it('refuses past the limit, says when to retry, and opens a new window after 60 s', async () => {
    const limits = new RateLimits(memoryCounterStore(), async () => 3);
    const decisions = [];
    for (let i = 0; i < 4; i++) decisions.push(await limits.consume(principal));
    expect(decisions.map((d) => [d.allowed, d.remaining])).toEqual([[true, 2], [true, 1], [true, 0], [false, 0]]);
    expect(decisions[3]).toMatchObject({ limit: 3, resetS: 60, retryAfterS: 60 });
    expect(rateLimitHeaders(decisions[3]!)).toEqual({ 'RateLimit-Policy': '3;w=60', RateLimit: 'limit=3, remaining=0, reset=60', 'Retry-After': '60' });
    jest.advanceTimersByTime(30_000);
    expect((await limits.consume(principal)).retryAfterS).toBe(30);
    jest.advanceTimersByTime(30_001);
    expect(await limits.consume(principal)).toMatchObject({ allowed: true, remaining: 2, resetS: 60 });
  });

  it('one count per key whatever the limit: a new limit never opens a fresh budget; points count several at once', async () => {
    let limit = 3;
    const limits = new RateLimits(memoryCounterStore(), async () => limit);
    await limits.consume(principal, 3);
    expect((await limits.consume(principal)).allowed).toBe(false);
    limit = 6;
    expect(await limits.consume(principal)).toMatchObject({ allowed: true, remaining: 1 });
    expect((await limits.consume(principal, 2)).allowed).toBe(false);
    expect((await limits.consume({ ...principal, keyId: 'key_2' })).remaining).toBe(5);
  });

  it('a limit of 0 is off: always allowed, no headers', async () => {
    const decision = await new RateLimits(memoryCounterStore(), async () => 0).consume(principal, 1000);
    expect(decision.allowed).toBe(true);
    expect(rateLimitHeaders(decision)).toEqual({});
  });

  it('AddressRateLimits counts per address in its own name, beside the key counts, and 0 turns it off', async () => {
    const store = memoryCounterStore();
    const limits = new AddressRateLimits(store, 2);
    const keyLimits = new RateLimits(store, async () => 1);
    const decisions = [];
    for (let i = 0; i < 3; i++) decisions.push(await limits.consume('203.0.113.9'));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, false]);
    expect(decisions[2]).toMatchObject({ limit: 2, remaining: 0, retryAfterS: 60 });
    expect((await limits.consume('203.0.113.10')).allowed).toBe(true);
    // A key named like the address has a count of its own.
    expect((await keyLimits.consume({ ...principal, keyId: '203.0.113.9' })).allowed).toBe(true);
    jest.advanceTimersByTime(60_001);
    expect((await limits.consume('203.0.113.9')).allowed).toBe(true);
    const off = new AddressRateLimits(store, 0, 'off:');
    for (let i = 0; i < 10; i++) expect((await off.consume('203.0.113.9')).allowed).toBe(true);
  });

  it('AuthFailures throttles an address after its budget of failures until the window ends', async () => {
    const failures = new AuthFailures(memoryCounterStore(), 2);
    expect(await failures.retryAfterS('192.0.2.1')).toBeUndefined();
    await failures.record('192.0.2.1');
    await failures.record('192.0.2.1');
    expect(await failures.retryAfterS('192.0.2.1')).toBe(60);
    expect(await failures.retryAfterS('192.0.2.2')).toBeUndefined();
    jest.advanceTimersByTime(60_001);
    expect(await failures.retryAfterS('192.0.2.1')).toBeUndefined();
  });
});
