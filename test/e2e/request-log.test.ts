import { connect } from 'node:net';
import { captureLog } from '../support/captured-log';
import { gql } from '../support/graphql-client';
import { eventually, startTestService, type TestService } from '../support/test-service';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('request logs and request ids', () => {
  let service: TestService;
  let apiKey: string;
  let tenantId: string;
  const log = captureLog('debug');
  beforeAll(async () => {
    service = await startTestService({}, {}, { logger: log.logger });
    ({ apiKey, tenantId } = await service.newTenant());
  });
  afterAll(() => service.close());
  /** The request log line of `requestId` (waits for it: the line is written when the response finishes). */
  const lineOf = (requestId: string) => eventually(async () => log.lines.find((l) => l.msg === 'request' && l.requestId === requestId));

  it('keeps a sane X-Request-Id, returns it as Request-Id and logs it with the tenant and key ids, never the key', async () => {
    const res = await service.call('GET', '/v1/balances', { apiKey, headers: { 'x-request-id': 'trace-0123:abc/DEF' } });
    expect(res.headers.get('request-id')).toBe('trace-0123:abc/DEF');
    const me = await gql(service.baseUrl, '{ me { keyId } }', {}, apiKey);
    const line = await lineOf('trace-0123:abc/DEF');
    expect(line).toMatchObject({ level: 30, method: 'GET', url: '/v1/balances', status: 200, tenantId, keyId: me.body.data.me.keyId, ms: expect.any(Number) });
    expect(log.text()).not.toContain(apiKey);
    expect(log.text()).not.toMatch(/authorization/i);
  });

  it.each([
    ['too long', 'a'.repeat(129)],
    ['with a space', 'two words'],
    ['with a non-ASCII character', 'caf\u00e9'],
  ])('replaces an X-Request-Id %s with a new one', async (_name, incoming) => {
    const res = await fetch(`${service.baseUrl}/livez`, { headers: { 'x-request-id': incoming } });
    expect(res.headers.get('request-id')).toMatch(UUID);
  });

  it('gives every response a Request-Id: REST, errors, 404s, GraphQL, documents and parser refusals', async () => {
    const responses = await Promise.all([
      service.call('GET', '/v1/balances', { apiKey }),
      service.call('GET', '/v1/balances'),
      service.call('GET', '/nowhere'),
      service.call('POST', '/v1/customers', { apiKey, rawBody: '{"broken' }),
      fetch(`${service.baseUrl}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` }, body: '{"query":"{ me { tenantId } }"}' }),
      fetch(`${service.baseUrl}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }),
      fetch(`${service.baseUrl}/openapi.json`),
    ]);
    expect(responses.map((r) => r.status)).toEqual([200, 401, 404, 400, 200, 401, 200]);
    for (const r of responses) expect(r.headers.get('request-id')).toMatch(UUID);
    const raw = await new Promise<string>((resolve) => {
      const socket = connect(Number(new URL(service.baseUrl).port), '127.0.0.1');
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString()));
      socket.on('close', () => resolve(text));
      socket.write('NOT A REQUEST\r\n\r\n');
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400 [^]*\r\nRequest-Id: [0-9a-f-]{36}\r\n/);
  });

  it('logs the original URL of mounted routers, masks secret-looking query values, and probes at debug level', async () => {
    const graphql = await gql(service.baseUrl, '{ me { tenantId } }', {}, apiKey);
    expect(graphql.status).toBe(200);
    expect(await lineOf(graphql.headers.get('request-id')!)).toMatchObject({ url: '/graphql', status: 200, tenantId });
    const listed = await service.call('GET', '/v1/balances/transactions?limit=5&access_token=s3cr3t', { apiKey });
    const line = await lineOf(listed.headers.get('request-id')!);
    expect(line.url).toBe('/v1/balances/transactions?limit=5&access_token=[redacted]');
    expect(log.text()).not.toContain('s3cr3t');
    for (const probe of ['/livez', '/readyz']) {
      const res = await service.call('GET', probe);
      expect(await lineOf(res.headers.get('request-id')!)).toMatchObject({ level: 20, url: probe });
    }
  });

  it('never logs a transfer-link token, nor a callback path secret, whatever the case of the path', async () => {
    const created = await service.call('POST', '/tx/createTransferRequest', {
      apiKey, body: { recipient: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU', amount: 10, acquirerMerchantName: 'ACQ_1', reference: `log-${Date.now()}`, merchantID: 'm-1' },
    });
    expect(created.status).toBe(200);
    const token = new URL(created.body.link).searchParams.get('token')!;
    expect(token).toMatch(/^trt_/);
    const resolved = await service.call('GET', `/tx/transferLinks/${token}`);
    expect(resolved.status).toBe(200);
    expect(await lineOf(resolved.headers.get('request-id')!)).toMatchObject({ url: '/tx/transferLinks/[redacted]', status: 200 });
    // express routes paths case-insensitively: the same token under another case is served, and masked too.
    const shouted = await service.call('GET', `/TX/TRANSFERLINKS/${token}?x=1`);
    expect(shouted.status).toBe(200);
    expect((await lineOf(shouted.headers.get('request-id')!)).url).toBe('/TX/TRANSFERLINKS/[redacted]?x=1');
    const unknown = await service.call('GET', '/tx/transferLinks/trt_not-a-real-token-0123456789');
    expect(await lineOf(unknown.headers.get('request-id')!)).toMatchObject({ url: '/tx/transferLinks/[redacted]', status: 404 });
    const callback = await service.call('POST', '/Callbacks/MPESA/callback-secret-0123456789abcdef0123/result/pay_x');
    expect((await lineOf(callback.headers.get('request-id')!)).url).toBe('/Callbacks/MPESA/[redacted]/result/pay_x');
    expect(log.text()).not.toContain(token);
    expect(log.text()).not.toContain('trt_not-a-real-token');
    expect(log.text()).not.toContain('callback-secret-0123456789abcdef0123');
  });
});
