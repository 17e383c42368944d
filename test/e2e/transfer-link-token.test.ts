import { randomUUID } from 'node:crypto';
import type { Clock } from '../../src/core/shared/clock';
import { startTestService, type TestService } from '../support/test-service';

/** The deeplink token of a transfer request is opaque: it reveals nothing, and only the server maps it back. */
describe('transfer request deeplink tokens', () => {
  let service: TestService;
  let tenantId: string;
  let apiKey: string;
  // A clock the test moves forward, to reach a request's expiry without waiting for it.
  let offsetMs = 0;
  const clock: Clock = { now: () => new Date(Date.now() + offsetMs) };
  beforeAll(async () => {
    service = await startTestService({ TRANSFER_LINK_TTL_SECONDS: '600' }, { clock });
    ({ tenantId, apiKey } = await service.newTenant('0'));
  });
  afterAll(() => service.close());

  const recipient = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';
  const body = (overrides: Record<string, unknown> = {}) => ({
    recipient, amount: 150.5, acquirerMerchantName: 'ACQ_1', reference: `trq-${randomUUID()}`, merchantID: 'merchant-42', ...overrides,
  });
  const create = async (b: Record<string, unknown>) => {
    const res = await service.call('POST', '/tx/createTransferRequest', { apiKey, body: b });
    expect(res.status).toBe(200);
    return res.body.link as string;
  };
  /** The token in a link made from one of the catalog's templates (a query parameter or the last path segment). */
  const tokenOf = (link: string) => {
    const url = new URL(link);
    return decodeURIComponent(url.searchParams.get('token') ?? url.searchParams.get('request') ?? url.pathname.split('/').pop()!);
  };
  const resolve = (token: string) => service.call('GET', `/tx/transferLinks/${encodeURIComponent(token)}`);

  it('puts an opaque token in each acquirer template, readable in no base64 decoding', async () => {
    const links = {
      ACQ_1: await create(body()),
      ACQ_2: await create(body({ acquirerMerchantName: 'ACQ_2' })),
      ACQ_3: await create(body({ acquirerMerchantName: 'ACQ_3' })),
    };
    const secrets = [tenantId, recipient, 'merchant-42', '150.50', '150.5', 'ACQ_'];
    for (const link of Object.values(links)) {
      const token = tokenOf(link);
      // Every way a reader might try: the whole token, without its prefix, and each dot-separated part.
      const pieces = [token, token.replace(/^trt_/, ''), ...token.split('.'), ...token.replace(/^trt_/, '').split('.')];
      const decodings = pieces.flatMap((p) => [p, ...(['base64', 'base64url'] as const).flatMap((enc) => {
        const bytes = Buffer.from(p, enc);
        return [bytes.toString('utf8'), bytes.toString('latin1')];
      })]);
      for (const text of decodings) {
        for (const secret of secrets) expect(text).not.toContain(secret);
      }
    }
    // The catalog's templates keep their shape; only the token changed.
    expect(links.ACQ_1).toMatch(/^https:\/\/pay\.acquirer-one\.example\/transfer\?token=trt_[\w-]{32}$/);
    expect(links.ACQ_2).toMatch(/^https:\/\/checkout\.acquirer-two\.example\/t\/trt_[\w-]{32}$/);
    expect(links.ACQ_3).toMatch(/^acquirer3:\/\/pay\?request=trt_[\w-]{32}$/);
  });

  it('gives two requests different tokens', async () => {
    const b = body();
    const one = tokenOf(await create(b));
    const two = tokenOf(await create({ ...b, reference: `trq-${randomUUID()}` }));
    expect(one).not.toBe(two);
  });

  it('maps the token back to its request for the acquirer, without the tenant, until the request expires', async () => {
    const b = body({ currency: 'ZAR', description: 'Two tickets', successUrl: 'https://m.example/ok', terminalType: 'WEB', customReference: 'acq-ref-7' });
    const token = tokenOf(await create(b));
    const found = await resolve(token);
    expect(found.status).toBe(200);
    expect(found.headers.get('cache-control')).toBe('no-store');
    expect(found.body).toEqual({
      id: expect.stringMatching(/^trq_/), acquirerMerchantName: 'ACQ_1', merchantID: 'merchant-42', recipient, amount: '150.50', currency: 'ZAR',
      description: 'Two tickets', customReference: 'acq-ref-7', merchantCategoryCode: null, paymentProcessor: 'PROCESSOR_1', terminalType: 'WEB',
      successUrl: 'https://m.example/ok', failedUrl: null, webhookUrl: null, expiresAt: expect.any(String),
    });
    expect(found.text).not.toContain(tenantId);
    expect(found.text).not.toContain(b.reference);
    const state = await service.call('GET', `/tx/transferRequests/${b.reference}`, { apiKey });
    expect(found.body.expiresAt).toBe(state.body.expiresAt);

    for (const unknown of [`trt_${'A'.repeat(32)}`, 'trt_short', token.slice(0, -1), `${token}x`]) {
      const res = await resolve(unknown);
      expect({ unknown, status: res.status, body: res.body }).toEqual({ unknown, status: 404, body: { message: expect.any(String), error: 'not_found', details: '', statusCode: 404, code: 'not_found' } });
    }

    offsetMs = 600_000;
    try {
      const expired = await resolve(token);
      expect(expired.status).toBe(410);
      expect(expired.body).toEqual({ message: expect.any(String), error: 'link_expired', details: '', statusCode: 410, code: 'link_expired' });
      expect((await service.call('GET', `/tx/transferRequests/${b.reference}`, { apiKey })).body.status).toBe('expired');
    } finally {
      offsetMs = 0;
    }
  });
});
