import { gql } from '../support/graphql-client';
import { startTestService, type TestService } from '../support/test-service';
import { initSocket } from '../support/ws-socket';

/** A well-formed key that no tenant has. */
const unknownKey = (i: number) => `sk_sandbox_${String(i).padStart(8, '0')}${'Z'.repeat(28)}`;

describe('failed authentication is throttled per client address', () => {
  let service: TestService;
  let apiKey: string;
  beforeAll(async () => {
    // Behind a trusted proxy on loopback, X-Forwarded-For names the client: each case uses its own address.
    service = await startTestService({ AUTH_FAILURES_PER_MINUTE: '30', TRUST_PROXY: 'loopback' });
    ({ apiKey } = await service.newTenant());
  });
  afterAll(() => service.close());
  const from = (address: string, key?: string) => ({ headers: { 'x-forwarded-for': address }, ...(key ? { apiKey: key } : {}) });

  it('450 bad keys: 401 for the first 30, then 429 rate_limited in shape A with Retry-After', async () => {
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 450; i++) {
      last = await service.call('GET', '/v1/balances', from('203.0.113.1', unknownKey(i)));
      statuses.push(last.status);
    }
    expect(statuses.slice(0, 30)).toEqual(Array(30).fill(401));
    expect(statuses.slice(30)).toEqual(Array(420).fill(429));
    expect(last!.body).toEqual({ statusCode: 429, code: 'rate_limited', message: expect.stringMatching(/failed authentications/), details: { requestId: expect.any(String) } });
    const retryAfter = Number(last!.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
  });

  it('a throttled address is refused even with a valid key, on REST, GraphQL and graphql-ws; other addresses are not', async () => {
    for (let i = 0; i < 30; i++) await service.call('GET', '/v1/balances', from('203.0.113.2', unknownKey(i)));
    const rest = await service.call('GET', '/v1/balances', from('203.0.113.2', apiKey));
    expect(rest.status).toBe(429);
    expect(rest.headers.get('retry-after')).toMatch(/^\d+$/);
    const graphql = await fetch(`${service.baseUrl}/graphql`, {
      method: 'POST', body: JSON.stringify({ query: '{ me { tenantId } }' }),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}`, 'x-forwarded-for': '203.0.113.2' },
    });
    expect(graphql.status).toBe(429);
    expect(graphql.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(((await graphql.json()) as any).errors[0].extensions).toEqual({ code: 'rate_limited' });
    const socket = initSocket(service.baseUrl, { authorization: apiKey }, { 'x-forwarded-for': '203.0.113.2' });
    expect(await socket.outcome).toEqual({ code: 4429, reason: expect.stringMatching(/failed authentications/) });
    expect((await service.call('GET', '/v1/balances', from('203.0.113.3', apiKey))).status).toBe(200);
  });

  it('failures count on every transport alike, and successful requests do not count', async () => {
    for (let i = 0; i < 100; i++) expect((await service.call('GET', '/v1/balances', from('203.0.113.4', apiKey))).status).toBe(200);
    for (let i = 0; i < 10; i++) expect((await service.call('GET', '/v1/balances', from('203.0.113.4', unknownKey(i)))).status).toBe(401);
    for (let i = 0; i < 10; i++) {
      const res = await fetch(`${service.baseUrl}/graphql`, {
        method: 'POST', body: '{}', headers: { 'content-type': 'application/json', authorization: 'Bearer nope', 'x-forwarded-for': '203.0.113.4' },
      });
      expect(res.status).toBe(401);
    }
    for (let i = 0; i < 10; i++) {
      expect(await initSocket(service.baseUrl, { authorization: unknownKey(i) }, { 'x-forwarded-for': '203.0.113.4' }).outcome).toMatchObject({ code: 4401 });
    }
    expect((await service.call('GET', '/v1/balances', from('203.0.113.4', apiKey))).status).toBe(429);
  });

  it('a missing key counts as a failure; a valid key of the wrong kind (403) does not', async () => {
    const admin = await service.newAdminKey();
    for (let i = 0; i < 40; i++) expect((await service.call('GET', '/v1/admin/tenants', from('203.0.113.5', apiKey))).status).toBe(403);
    for (let i = 0; i < 30; i++) expect((await service.call('GET', '/v1/balances', from('203.0.113.5'))).status).toBe(401);
    expect((await service.call('GET', '/v1/admin/tenants', from('203.0.113.5', admin))).status).toBe(429);
  });
});

describe('client address without a trusted proxy', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ AUTH_FAILURES_PER_MINUTE: '5' });
  });
  afterAll(() => service.close());

  it('ignores X-Forwarded-For (TRUST_PROXY off): rotating it does not escape the throttle', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      statuses.push((await service.call('GET', '/v1/balances', { apiKey: unknownKey(i), headers: { 'x-forwarded-for': `198.51.100.${i}` } })).status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    // GraphQL over HTTP is refused the same way, in its own error shape.
    const res = await gql(service.baseUrl, '{ me { tenantId } }', {}, unknownKey(99));
    expect(res.status).toBe(429);
    expect(res.body.errors[0].extensions.code).toBe('rate_limited');
  });
});

describe('client address behind a proxy trusted by hop count (TRUST_PROXY=1)', () => {
  let service: TestService;
  let apiKey: string;
  beforeAll(async () => {
    service = await startTestService({ AUTH_FAILURES_PER_MINUTE: '5', TRUST_PROXY: '1' });
    ({ apiKey } = await service.newTenant());
  });
  afterAll(() => service.close());
  /** What our one proxy passes on: the client's own X-Forwarded-For, then the client's address it appends. */
  const via = (client: string, sentByClient: string, key: string) => ({ apiKey: key, headers: { 'x-forwarded-for': `${sentByClient}, ${client}` } });

  it('a spoofed extra hop is not the client: rotating it does not escape the throttle, on REST, GraphQL and graphql-ws', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await service.call('GET', '/v1/balances', via('203.0.113.40', `198.51.100.${i}`, unknownKey(i)))).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    // The throttled client, whatever it puts before its address, with a valid key, on every transport.
    expect((await service.call('GET', '/v1/balances', via('203.0.113.40', '203.0.113.41', apiKey))).status).toBe(429);
    const graphql = await fetch(`${service.baseUrl}/graphql`, {
      method: 'POST', body: JSON.stringify({ query: '{ me { tenantId } }' }),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}`, 'x-forwarded-for': '203.0.113.41, 203.0.113.40' },
    });
    expect(graphql.status).toBe(429);
    expect(await initSocket(service.baseUrl, { authorization: apiKey }, { 'x-forwarded-for': '203.0.113.41, 203.0.113.40' }).outcome).toMatchObject({ code: 4429 });
    // Another client is its own address, even when it names the throttled one as an earlier hop.
    expect((await service.call('GET', '/v1/balances', via('203.0.113.41', '203.0.113.40', apiKey))).status).toBe(200);
  });

  it('without X-Forwarded-For the proxy itself (the socket) is the client', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await service.call('GET', '/v1/balances', { apiKey: unknownKey(i) })).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    expect((await service.call('GET', '/v1/balances', via('203.0.113.42', '127.0.0.1', apiKey))).status).toBe(200);
  });
});
