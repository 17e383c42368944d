import { AuthFailures } from '../../src/adapters/access/auth-failures';
import { ACCESS_REFUSALS, BearerAccess, type Authenticator, type Credential } from '../../src/adapters/access/bearer-access';
import { memoryCounterStore } from '../../src/adapters/access/counter-store';
import { RateLimits } from '../../src/adapters/access/rate-limits';
import type { Principal } from '../../src/core/auth/api-key';
import { err, ok } from '../../src/core/shared/result';

/**
 * The one authentication path of REST, GraphQL and graphql-ws (docs/decisions.md § Authentication,
 * tenants and keys; § Rate limits and abuse limits), on real in-memory counters and an
 * authenticator at the core's edge that knows three keys.
 */
const issuerKey = `sk_sandbox_${'A'.repeat(40)}`;
const adminKey = `sk_live_${'B'.repeat(40)}`;
const tenantlessIssuerKey = `sk_live_${'C'.repeat(40)}`;
const PRINCIPALS: Record<string, Principal> = {
  [issuerKey]: { keyId: 'key_issuer', tenantId: 'ten_1', scope: 'issuer' },
  [adminKey]: { keyId: 'key_admin', tenantId: null, scope: 'admin' },
  // Not a key the database would keep; a `tenant` need must refuse it all the same.
  [tenantlessIssuerKey]: { keyId: 'key_odd', tenantId: null, scope: 'issuer' },
};

function access(failuresPerMinute = 3) {
  const presented: string[] = [];
  const authenticate: Authenticator = async (apiKey) => {
    presented.push(apiKey);
    const principal = PRINCIPALS[apiKey];
    return principal ? ok(principal) : err('unauthorized', 'Invalid or revoked API key');
  };
  const store = memoryCounterStore();
  const rateLimits = new RateLimits(store, async () => 600);
  const gate = new BearerAccess({ authenticate, failures: new AuthFailures(store, failuresPerMinute), rateLimits });
  return { gate, presented, rateLimits };
}

const header = (value: string | undefined): Credential => ({ header: value });
const param = (value: unknown): Credential => ({ connectionParam: value });
const HEADER_MISSING = 'Authorization: Bearer <API_KEY> header is required';
const PARAM_MISSING = 'connection_init must carry {"authorization": "<API_KEY>"}';

describe('BearerAccess', () => {
  beforeEach(() => jest.useFakeTimers({ now: new Date('2026-11-23T10:00:00Z') }));
  afterEach(() => jest.useRealTimers());

  it('takes the key of "Authorization: Bearer <key>" (scheme in any case, spaces around the key)', async () => {
    const { gate, presented } = access();
    for (const value of [`Bearer ${issuerKey}`, `bearer ${issuerKey}`, `BEARER   ${issuerKey}  `, `Bearer\t${issuerKey}`]) {
      expect([value, await gate.authenticateBearer(header(value), '192.0.2.1', 'any')]).toEqual([value, ok(PRINCIPALS[issuerKey])]);
    }
    expect(presented).toEqual(Array(4).fill(issuerKey));
  });

  it('refuses a missing or malformed Authorization header as unauthorized without asking the authenticator', async () => {
    const { gate, presented } = access(100);
    for (const value of [undefined, '', 'Bearer', 'Bearer ', `Basic ${issuerKey}`, `${issuerKey}`, `Bearer ${issuerKey} extra`, `xBearer ${issuerKey}`]) {
      expect([value, await gate.authenticateBearer(header(value), '192.0.2.1', 'any')]).toEqual([value, err('unauthorized', HEADER_MISSING)]);
    }
    expect(presented).toEqual([]);
  });

  it('takes the key of a graphql-ws connection parameter, bare or after "Bearer", and refuses any other value', async () => {
    const { gate, presented } = access(100);
    for (const value of [issuerKey, `Bearer ${issuerKey}`, `bearer  ${issuerKey} `]) {
      expect([value, await gate.authenticateBearer(param(value), '192.0.2.1', 'any')]).toEqual([value, ok(PRINCIPALS[issuerKey])]);
    }
    expect(presented).toEqual(Array(3).fill(issuerKey));
    for (const value of [undefined, null, 42, { authorization: issuerKey }, '', ' ', `${issuerKey} extra`]) {
      expect([value, await gate.authenticateBearer(param(value), '192.0.2.1', 'any')]).toEqual([value, err('unauthorized', PARAM_MISSING)]);
    }
    expect(presented).toHaveLength(3);
  });

  it('an unknown key is unauthorized with the authenticator\'s message', async () => {
    const { gate, presented } = access();
    const unknown = `sk_sandbox_${'Z'.repeat(40)}`;
    expect(await gate.authenticateBearer(header(`Bearer ${unknown}`), '192.0.2.1', 'any')).toEqual(err('unauthorized', 'Invalid or revoked API key'));
    expect(presented).toEqual([unknown]);
  });

  it('after its budget of failures an address is throttled, valid key included, until the window ends; other addresses are not', async () => {
    const { gate, presented } = access(2);
    const bad = header(`Bearer sk_sandbox_${'Z'.repeat(40)}`);
    const good = header(`Bearer ${issuerKey}`);
    expect((await gate.authenticateBearer(bad, '192.0.2.1', 'any')).ok).toBe(false);
    // A success between failures neither counts nor forgives.
    expect((await gate.authenticateBearer(good, '192.0.2.1', 'any')).ok).toBe(true);
    // A malformed header counts as a failure too.
    expect(await gate.authenticateBearer(header(undefined), '192.0.2.1', 'any')).toEqual(err('unauthorized', HEADER_MISSING));
    presented.length = 0;
    jest.advanceTimersByTime(15_000);
    expect(await gate.authenticateBearer(good, '192.0.2.1', 'any')).toEqual(
      err('auth_throttled', 'Too many failed authentications from this address; retry after 45 s', { retryAfterS: 45 }),
    );
    expect(presented).toEqual([]);
    expect(await gate.authenticateBearer(good, '192.0.2.2', 'any')).toEqual(ok(PRINCIPALS[issuerKey]));
    jest.advanceTimersByTime(45_001);
    expect(await gate.authenticateBearer(good, '192.0.2.1', 'any')).toEqual(ok(PRINCIPALS[issuerKey]));
  });

  it('needs: any takes every valid key; admin only an admin key; tenant only a key that belongs to a tenant', async () => {
    const { gate } = access();
    const as = (key: string, need: 'any' | 'admin' | 'tenant') => gate.authenticateBearer(header(`Bearer ${key}`), '192.0.2.1', need);
    expect(await as(issuerKey, 'any')).toEqual(ok(PRINCIPALS[issuerKey]));
    expect(await as(adminKey, 'any')).toEqual(ok(PRINCIPALS[adminKey]));
    expect(await as(adminKey, 'admin')).toEqual(ok(PRINCIPALS[adminKey]));
    expect(await as(issuerKey, 'admin')).toEqual(err('forbidden', 'This operation needs an admin-scoped key'));
    expect(await as(issuerKey, 'tenant')).toEqual(ok(PRINCIPALS[issuerKey]));
    expect(await as(adminKey, 'tenant')).toEqual(err('forbidden', 'This operation needs an issuer key that belongs to a tenant'));
    expect(await as(tenantlessIssuerKey, 'tenant')).toEqual(err('forbidden', 'This operation needs an issuer key that belongs to a tenant'));
    expect(await as(tenantlessIssuerKey, 'admin')).toEqual(err('forbidden', 'This operation needs an admin-scoped key'));
  });

  it('a refusal for the wrong kind of key is not a failed authentication', async () => {
    const { gate } = access(1);
    expect((await gate.authenticateBearer(header(`Bearer ${issuerKey}`), '192.0.2.1', 'admin')).ok).toBe(false);
    expect((await gate.authenticateBearer(header(`Bearer ${issuerKey}`), '192.0.2.1', 'admin')).ok).toBe(false);
    expect(await gate.authenticateBearer(header(`Bearer ${adminKey}`), '192.0.2.1', 'admin')).toEqual(ok(PRINCIPALS[adminKey]));
  });

  it('answers each refusal with its documented status, wire code and graphql-ws close code, and shares one rate limit', () => {
    expect(ACCESS_REFUSALS).toEqual({
      unauthorized: { status: 401, code: 'unauthorized', closeCode: 4401 },
      forbidden: { status: 403, code: 'forbidden', closeCode: 4403 },
      auth_throttled: { status: 429, code: 'rate_limited', closeCode: 4429 },
    });
    const { gate, rateLimits } = access();
    expect(gate.rateLimits).toBe(rateLimits);
  });
});
