import express from 'express';
import type { Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { AuthFailures } from '../../src/adapters/access/auth-failures';
import { BearerAccess, type AccessNeed, type Authenticator } from '../../src/adapters/access/bearer-access';
import { clientAddressOf, compileProxyTrust } from '../../src/adapters/access/client-address';
import { memoryCounterStore } from '../../src/adapters/access/counter-store';
import { httpAccessGate, principalOf } from '../../src/adapters/access/http-gate';
import { RateLimits } from '../../src/adapters/access/rate-limits';
import { err, ok } from '../../src/core/shared/result';

/**
 * The HTTP access gate over real HTTP (docs/decisions.md § Authentication, tenants and keys; § Rate
 * limits and abuse limits): an express app whose one route answers the principal the gate left,
 * and whose refusals are written as `{status, code, message}`. The authenticator at the core's
 * edge knows one issuer key and one admin key.
 */
const issuerKey = `sk_sandbox_${'A'.repeat(40)}`;
const adminKey = `sk_live_${'B'.repeat(40)}`;
const unknownKey = `sk_sandbox_${'Z'.repeat(40)}`;
const authenticate: Authenticator = async (apiKey) => {
  if (apiKey === issuerKey) return ok({ keyId: 'key_issuer', tenantId: 'ten_1', scope: 'issuer' });
  if (apiKey === adminKey) return ok({ keyId: 'key_admin', tenantId: null, scope: 'admin' });
  return err('unauthorized', 'Invalid or revoked API key');
};

interface Gate { url: string; port: number; close(): Promise<void> }
const open: Gate[] = [];

async function gate(options: { need?: AccessNeed; limit?: number; failures?: number; trustProxy?: string } = {}): Promise<Gate> {
  const store = memoryCounterStore();
  const access = new BearerAccess({
    authenticate, failures: new AuthFailures(store, options.failures ?? 30), rateLimits: new RateLimits(store, async () => options.limit ?? 600),
  });
  const app = express();
  const send = (res: express.Response, status: number, code: string, message: string) => void res.status(status).json({ status, code, message });
  app.all('/x', httpAccessGate(access, compileProxyTrust(options.trustProxy ?? 'false'), options.need ?? 'any', send), (req, res) => {
    req.resume().on('end', () => res.json({ principal: principalOf(res) ?? null }));
  });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const port = (server.address() as AddressInfo).port;
  const handle = {
    url: `http://127.0.0.1:${port}/x`, port,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
  open.push(handle);
  return handle;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((g) => g.close()));
});

const call = async (g: Gate, key?: string, headers: Record<string, string> = {}) => {
  const response = await fetch(g.url, { headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers } });
  return { status: response.status, headers: response.headers, body: await response.json() as Record<string, unknown> };
};

/** Sends raw bytes and resolves with everything the server wrote until it closed the connection, or after `waitMs`. */
function raw(port: number, bytes: string, waitMs = 1000): Promise<{ text: string; closedByServer: boolean }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ text, closedByServer: false });
    }, waitMs);
    socket.on('data', (chunk) => { text += String(chunk); });
    socket.on('end', () => {
      clearTimeout(timer);
      resolve({ text, closedByServer: true });
    });
    socket.write(bytes);
  });
}

describe('httpAccessGate', () => {
  it('lets a valid key through with its principal and the RateLimit headers', async () => {
    const g = await gate({ limit: 5 });
    const answer = await call(g, issuerKey);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ principal: { keyId: 'key_issuer', tenantId: 'ten_1', scope: 'issuer' } });
    expect(answer.headers.get('ratelimit-policy')).toBe('5;w=60');
    expect(answer.headers.get('ratelimit')).toBe('limit=5, remaining=4, reset=60');
    expect(answer.headers.get('retry-after')).toBeNull();
  });

  it('401 unauthorized for a missing or unknown key, 403 forbidden for the wrong kind, with no Retry-After', async () => {
    const g = await gate({ need: 'admin' });
    const missing = await call(g);
    expect([missing.status, missing.body]).toEqual([401, { status: 401, code: 'unauthorized', message: 'Authorization: Bearer <API_KEY> header is required' }]);
    const unknown = await call(g, unknownKey);
    expect([unknown.status, unknown.body]).toEqual([401, { status: 401, code: 'unauthorized', message: 'Invalid or revoked API key' }]);
    const issuer = await call(g, issuerKey);
    expect([issuer.status, issuer.body]).toEqual([403, { status: 403, code: 'forbidden', message: 'This operation needs an admin-scoped key' }]);
    for (const answer of [missing, unknown, issuer]) {
      expect(answer.headers.get('retry-after')).toBeNull();
      expect(answer.headers.get('ratelimit')).toBeNull();
    }
    expect((await call(g, adminKey)).status).toBe(200);
  });

  it('a throttled address is told 429 rate_limited with Retry-After, whatever key it sends', async () => {
    const g = await gate({ failures: 2 });
    expect((await call(g, unknownKey)).status).toBe(401);
    expect((await call(g, unknownKey)).status).toBe(401);
    const throttled = await call(g, issuerKey);
    expect(throttled.status).toBe(429);
    expect(throttled.body).toEqual({ status: 429, code: 'rate_limited', message: 'Too many failed authentications from this address; retry after 60 s' });
    expect(throttled.headers.get('retry-after')).toBe('60');
  });

  it('a spent key budget is 429 rate_limited with Retry-After and the RateLimit headers', async () => {
    const g = await gate({ limit: 2 });
    expect((await call(g, issuerKey)).status).toBe(200);
    expect((await call(g, issuerKey)).status).toBe(200);
    const refused = await call(g, issuerKey);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ status: 429, code: 'rate_limited', message: 'Too many requests for this API key; retry after 60 s' });
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(refused.headers.get('ratelimit-policy')).toBe('2;w=60');
    expect(refused.headers.get('ratelimit')).toBe('limit=2, remaining=0, reset=60');
    // Another key has its own budget.
    expect((await call(g, adminKey)).status).toBe(200);
  });

  it('a limit of 0 lets every request through without RateLimit headers', async () => {
    const g = await gate({ limit: 0 });
    for (let i = 0; i < 3; i++) {
      const answer = await call(g, issuerKey);
      expect([answer.status, answer.headers.get('ratelimit'), answer.headers.get('ratelimit-policy')]).toEqual([200, null, null]);
    }
  });

  it('refuses before the body is read and closes a connection whose body has not arrived; a complete request keeps it', async () => {
    const g = await gate();
    const pending = await raw(g.port, 'POST /x HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":');
    expect(pending.text).toMatch(/^HTTP\/1\.1 401 /);
    expect(pending.text).toMatch(/\r\nConnection: close\r\n/i);
    expect(pending.closedByServer).toBe(true);

    const complete = await raw(g.port, 'GET /x HTTP/1.1\r\nHost: t\r\n\r\n', 300);
    expect(complete.text).toMatch(/^HTTP\/1\.1 401 /);
    expect(complete.text).toMatch(/\r\nConnection: keep-alive\r\n/i);
    expect(complete.closedByServer).toBe(false);
  });

  it('counts failures per client address: the socket\'s by default, X-Forwarded-For\'s first untrusted hop behind a trusted proxy', async () => {
    const direct = await gate({ failures: 1 });
    expect((await call(direct, unknownKey, { 'x-forwarded-for': '198.51.100.1' })).status).toBe(401);
    // X-Forwarded-For is ignored: the socket (127.0.0.1) is throttled whatever the header says.
    expect((await call(direct, issuerKey, { 'x-forwarded-for': '198.51.100.2' })).status).toBe(429);

    const proxied = await gate({ failures: 1, trustProxy: 'loopback' });
    expect((await call(proxied, unknownKey, { 'x-forwarded-for': '198.51.100.1' })).status).toBe(401);
    expect((await call(proxied, issuerKey, { 'x-forwarded-for': '198.51.100.2' })).status).toBe(200);
    expect((await call(proxied, issuerKey, { 'x-forwarded-for': '198.51.100.1' })).status).toBe(429);
    // Only hops the rules trust are walked past: a client cannot name itself another address.
    expect((await call(proxied, issuerKey, { 'x-forwarded-for': '198.51.100.2, 198.51.100.1' })).status).toBe(429);
  });
});

describe('TRUST_PROXY', () => {
  const hops = (setting: string, address: string, index: number) => compileProxyTrust(setting)(address, index);

  it('false or empty trusts no hop, true every hop, a number that many hops from the socket', () => {
    for (const setting of ['', ' ', 'false', ' false ']) expect([setting, hops(setting, '127.0.0.1', 0)]).toEqual([setting, false]);
    for (const setting of ['true', ' true']) expect([setting, hops(setting, '203.0.113.7', 5)]).toEqual([setting, true]);
    expect([0, 1, 2].map((i) => hops('2', '203.0.113.7', i))).toEqual([true, true, false]);
    expect([0, 1].map((i) => hops(' 1 ', '203.0.113.7', i))).toEqual([true, false]);
    expect([9, 10].map((i) => hops('10', '203.0.113.7', i))).toEqual([true, false]);
    expect(hops('0', '127.0.0.1', 0)).toBe(false);
  });

  it('a list trusts the addresses, ranges and names it gives, spaces allowed, and refuses an invalid entry', () => {
    const trust = compileProxyTrust('loopback, 10.0.0.0/8 ,192.0.2.7');
    expect(['127.0.0.1', '::1', '10.1.2.3', '192.0.2.7', '192.0.2.8', '203.0.113.7'].map((a) => trust(a, 0))).toEqual([true, true, true, true, false, false]);
    expect(() => compileProxyTrust('10.0.0.0/99')).toThrow(TypeError);
    expect(() => compileProxyTrust('not-an-address')).toThrow(TypeError);
  });

  it('the client of a request whose socket has gone is "unknown"', () => {
    const gone = { socket: { remoteAddress: undefined }, headers: { 'x-forwarded-for': '198.51.100.1' } };
    expect(clientAddressOf(gone as never, compileProxyTrust('true'))).toBe('unknown');
    const here = { socket: { remoteAddress: '10.0.0.5' }, connection: { remoteAddress: '10.0.0.5' }, headers: { 'x-forwarded-for': '198.51.100.1' } };
    expect(clientAddressOf(here as never, compileProxyTrust('true'))).toBe('198.51.100.1');
    expect(clientAddressOf(here as never, compileProxyTrust('false'))).toBe('10.0.0.5');
  });
});
